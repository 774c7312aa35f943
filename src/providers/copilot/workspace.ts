// workspace.yaml: the session's summary (its title), folder and branch, top-level keys of a flat
// YAML mapping. Read through the yaml package's concrete syntax tree, not its full document
// model: half the cost, and only scalars are wanted (a cold status reads one per session).
import { CST, Parser } from 'yaml';

/** The top-level string values of a YAML mapping; anything else (lists, nested maps) is passed over. */
export function workspaceFields(text: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const token of new Parser().parse(text)) {
    if (token.type !== 'document' || token.value?.type !== 'block-map') continue;
    for (const item of token.value.items) {
      let broken = false;
      const onError = (): void => {
        broken = true;
      };
      const key = item.key === null || item.key === undefined || !CST.isScalar(item.key) ? null : CST.resolveAsScalar(item.key, true, onError);
      const value = item.value === null || item.value === undefined || !CST.isScalar(item.value) ? null : CST.resolveAsScalar(item.value, true, onError);
      // A value with errors (an unclosed quote) is not guessed at.
      if (key === null || value === null || value.value === '' || broken) continue;
      fields[key.value] = value.value;
    }
  }
  return fields;
}
