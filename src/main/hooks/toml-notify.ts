// Codex's `notify` program in config.toml: added as one top-level line when the user has none,
// removed as exactly that line. A TOML parser (smol-toml) decides what the file holds — a notify
// spelled `"notify" = …`, or following a multi-line array, is still the user's — and every edit
// is checked by parsing the result; the user's bytes are never rewritten.
import { parse } from 'smol-toml';
import { HooksFileError } from './json-hooks';

type Table = Record<string, unknown>;

/** JSON for comparing parsed values (big integers included). */
const same = (a: unknown, b: unknown): boolean => {
  const text = (value: unknown): string => JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? `${item}n` : item));
  return text(a) === text(b);
};

/** The parsed file, or a refusal naming it: Lookout never edits a TOML file it cannot read. */
function tables(text: string, path: string): Table {
  try {
    // Integers past 2^53 are valid TOML: read them as big integers rather than refuse the file.
    return parse(text, { integersAsBigInt: 'asNeeded' }) as Table;
  } catch (error) {
    const first = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    throw new HooksFileError(`${path} is not valid TOML (${first}); fix it first — Lookout changed nothing`);
  }
}

/** A top-level `notify` key, however it is spelled. */
export function hasNotify(text: string, path = 'config.toml'): boolean {
  return Object.hasOwn(tables(text, path), 'notify');
}

/** TOML basic strings: backslash, quote and control characters escaped. */
function tomlString(text: string): string {
  const escaped = text.replace(/[\\"\u0000-\u001f\u007f]/g, (char) =>
    char === '\\' || char === '"' ? `\\${char}` : `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return `"${escaped}"`;
}

export function notifyLine(argv: readonly string[]): string {
  return `notify = [${argv.map(tomlString).join(', ')}] # added by lookout hooks install`;
}

/** The argv a notify line holds, as the parser reads it. */
function notifyOf(text: string, path: string): unknown {
  return tables(text, path).notify;
}

/**
 * Top-level keys must come before any table, so the line goes first (after a byte-order mark),
 * ending the way the file's lines end. The result is parsed: it must hold exactly our argv and
 * every key the user had, or nothing is written.
 */
export function addNotify(text: string, line: string, argv: readonly string[], path = 'config.toml'): string {
  const before = tables(text, path);
  if (Object.hasOwn(before, 'notify')) throw new HooksFileError(`${path} has a notify program already; Lookout changed nothing`);
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const bom = text.startsWith('\uFEFF') ? '\uFEFF' : '';
  const next = `${bom}${line}${eol}${text.slice(bom.length)}`;
  const after = tables(next, path);
  const kept = Object.keys(before).every((key) => same(after[key], before[key]));
  if (!kept || !same(after.notify, argv)) throw new HooksFileError(`${path}: Lookout could not add its notify line safely; it changed nothing`);
  return next;
}

/** Takes out exactly the line Lookout added (with its line ending); anything else stays. */
export function removeNotify(text: string, line: string): string {
  for (const ending of ['\r\n', '\n', '']) {
    const needle = `${line}${ending}`;
    // Every place the text stands, not only the first (it may also stand inside a comment).
    for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) {
      if (ending === '' && at + line.length !== text.length) continue;
      // Only a whole line: at the start of the file (after a BOM) or after a line break.
      if (at > 0 && text[at - 1] !== '\n' && !(at === 1 && text.startsWith('\uFEFF'))) continue;
      return `${text.slice(0, at)}${text.slice(at + needle.length)}`;
    }
  }
  return text;
}

/** Whether the file's notify is exactly this argv (Lookout's). */
export function notifyIs(text: string, argv: readonly string[], path = 'config.toml'): boolean {
  return same(notifyOf(text, path), argv);
}
