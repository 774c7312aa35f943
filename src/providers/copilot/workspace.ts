// workspace.yaml: the session's summary (its title), folder and branch, top-level keys of a flat
// YAML mapping that the CLI writes with a YAML serializer. A cold status reads one per session,
// and the yaml package costs ~0.1 ms each before its code is warm: a file whose every line is
// `key: value` with a value YAML would read as itself is taken as it stands; anything else
// (quotes, block scalars, continuation lines, nesting, comments) goes to the yaml package's
// concrete syntax tree, which is the authority.
import { CST, Parser } from 'yaml';

const KEY_LINE = /^([A-Za-z_][A-Za-z0-9_]*):(?:[ \t]+(.*))?$/;
/** A plain scalar that resolves to its own text: no indicator first, no ": " or " #" inside. */
const PLAIN = /^[^\s\-?:,[\]{}#&*!|>'"%@`](?:(?!: |\s#)[^\t])*$/;

/** Plain scalars YAML reads as null, not text: such a field is absent (never the title "null"). */
const NULL_PLAIN = /^(?:null|Null|NULL|~)$/;

/** Every line a `key: plain value`: the values as they stand; null when YAML must decide. */
function plainFields(text: string): Record<string, string> | null {
  const fields: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    if (line === '') continue;
    const match = KEY_LINE.exec(line);
    if (match === null) return null;
    const value = (match[2] ?? '').trimEnd();
    if (value === '') return null;
    if (!PLAIN.test(value) || value.endsWith(':')) return null;
    if (!NULL_PLAIN.test(value)) fields[match[1] ?? ''] = value;
  }
  return fields;
}

/** The top-level string values of a YAML mapping; anything else (lists, nested maps) is passed over. */
export function workspaceFields(text: string): Record<string, string> {
  return plainFields(text) ?? syntaxTreeFields(text);
}

function syntaxTreeFields(text: string): Record<string, string> {
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
      if (item.value?.type === 'scalar' && NULL_PLAIN.test(value.value)) continue;
      fields[key.value] = value.value;
    }
  }
  return fields;
}
