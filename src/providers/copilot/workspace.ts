// workspace.yaml: the session's summary (its title), folder and branch, top-level keys of a flat
// YAML mapping that the CLI writes with a YAML serializer. A cold status reads one per session,
// and the yaml package costs ~0.1 ms each before its code is warm: a file whose every line is
// `key: value` with a value YAML would read as itself is taken as it stands; anything else
// (quotes, block scalars, continuation lines, nesting, comments) goes to the yaml package's
// concrete syntax tree, which is the authority. Only the head of the file is read, and of it only
// the entries Lookout uses reach either path (issue 25: a megabyte flow list cost seconds).
import { CST, Parser } from 'yaml';

/** How much of workspace.yaml is read: the CLI writes its few keys first, in a few hundred bytes. */
export const WORKSPACE_HEAD_BYTES = 64 * 1024;
/** The longest entry kept (a key line and its continuation): a longer one is passed over. */
const ENTRY_BYTES = 16 * 1024;
/** The top-level keys Lookout uses: the session's title, folder and branch. */
const USED_KEY = /^(?:summary|cwd|branch)[ \t]*:(?:[ \t]|$)/;

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

/** The summary, cwd and branch entries of the text (each a key line and its indented lines), nothing else. */
function usedEntries(text: string): string {
  const kept: string[] = [];
  let entry: string[] = [];
  let size = 0;
  let keep = false;
  const close = (): void => {
    if (keep && size <= ENTRY_BYTES) kept.push(...entry);
    entry = [];
    size = 0;
  };
  for (const line of text.split(/\r?\n/)) {
    // A line at the left margin starts the next top-level entry; blank and indented lines go on this one.
    if (line !== '' && line[0] !== ' ' && line[0] !== '\t') {
      close();
      keep = USED_KEY.test(line);
    }
    if (!keep || size > ENTRY_BYTES) continue;
    entry.push(line);
    size += line.length + 1;
  }
  close();
  return kept.length === 0 ? '' : `${kept.join('\n')}\n`;
}

/** The summary, cwd and branch as YAML reads them, taken from those entries alone. */
export function usedWorkspaceFields(text: string): Record<string, string> {
  return workspaceFields(usedEntries(text));
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
