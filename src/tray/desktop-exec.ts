// The Exec key of a desktop entry, both ways: quoting a command as the desktop entry specification
// says, and reading back the program GLib looks for before it accepts an entry (the first word,
// field codes such as `%%` not yet expanded), so the tray's check mark can say whether it launches.

/**
 * One Exec argument as the desktop entry specification quotes it: `"`, `` ` ``, `$` and `\` escaped
 * inside double quotes; then, since Exec is a string value, each backslash written twice.
 */
export function execArgument(argument: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(argument)) return argument;
  return `"${argument.replace(/[\\"`$]/g, (char) => `\\${char}`)}"`.replace(/\\/g, '\\\\');
}

/** The keys of the `[Desktop Entry]` group, values as written (spaces around `=` ignored, as GLib does). */
export function desktopEntryKeys(text: string): Map<string, string> {
  const keys = new Map<string, string>();
  let inEntry = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('[')) inEntry = line.trimEnd() === '[Desktop Entry]';
    const at = line.indexOf('=');
    if (!inEntry || line.startsWith('#') || at < 0) continue;
    const key = line.slice(0, at).trim();
    if (!keys.has(key)) keys.set(key, line.slice(at + 1).trimStart());
  }
  return keys;
}

const KEY_FILE_ESCAPES: Readonly<Record<string, string>> = { s: ' ', n: '\n', t: '\t', r: '\r', '\\': '\\', ';': ';' };

/** A string value as GLib's key file reads it; null where GLib refuses the escape. */
export function keyFileString(raw: string): string | null {
  let out = '';
  for (let i = 0; i < raw.length; i += 1) {
    const char = raw[i] ?? '';
    if (char !== '\\') {
      out += char;
      continue;
    }
    const escaped = KEY_FILE_ESCAPES[raw[i + 1] ?? ''];
    if (escaped === undefined) return null;
    out += escaped;
    i += 1;
  }
  return out;
}

const BLANK = /[ \t\n]/;
/** Inside double quotes a backslash escapes only these (g_shell_parse_argv, like sh). */
const DOUBLE_QUOTED_ESCAPES = '"\\`$\n';

/** The first word of a command line as g_shell_parse_argv splits it; null when it cannot be parsed. */
function firstWord(command: string): string | null {
  let i = 0;
  while (i < command.length && BLANK.test(command[i] ?? '')) i += 1;
  let word = '';
  for (; i < command.length && !BLANK.test(command[i] ?? ''); i += 1) {
    const char = command[i] ?? '';
    if (char === "'") {
      const end = command.indexOf("'", i + 1);
      if (end < 0) return null;
      word += command.slice(i + 1, end);
      i = end;
    } else if (char === '"') {
      let end = i + 1;
      for (; end < command.length && command[end] !== '"'; end += 1) {
        const next = command[end + 1] ?? '';
        if (command[end] === '\\' && next !== '' && DOUBLE_QUOTED_ESCAPES.includes(next)) {
          word += next;
          end += 1;
        } else {
          word += command[end];
        }
      }
      if (end >= command.length) return null;
      i = end;
    } else if (char === '\\') {
      if (i + 1 >= command.length) return null;
      if (command[i + 1] !== '\n') word += command[i + 1];
      i += 1;
    } else {
      word += char;
    }
  }
  return word === '' ? null : word;
}

/** The program GLib checks for before it accepts the entry: Exec's first word, or null if it cannot say. */
export function execProgram(entry: string): string | null {
  const raw = desktopEntryKeys(entry).get('Exec');
  const exec = raw === undefined ? null : keyFileString(raw);
  return exec === null ? null : firstWord(exec);
}
