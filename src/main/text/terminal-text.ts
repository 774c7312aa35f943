// The one place text reaches the terminal. Titles, folders, branches, commands and paths come
// from files anyone can write: a control character in them could set the window title, write the
// clipboard (OSC 52), clear the screen or forge a row. Each printed line is made safe here: every
// control, bidirectional, invisible or unusual blank character is shown visibly (the engine's
// visible-text.ts), so one line of ours is one line on screen, read as it is. `--json` keeps the
// exact strings, with the characters that act on a terminal escaped the JSON way.
import { visibleText } from '../../engine/visible-text';

/** C0, DEL and C1 controls; line and paragraph separators; bidirectional overrides and isolates: what JSON escapes. */
export const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** One line for a terminal: no character in it can control the terminal, break the line or hide (issue 47). */
export function terminalLine(text: string): string {
  return visibleText(text);
}

/** JSON for a terminal or a pipe: the exact strings, every control character escaped. */
export function jsonLine(value: unknown): string {
  return JSON.stringify(value).replace(UNSAFE, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * `jsonLine(value)` and a newline, as UTF-8 bytes, for output of a megabyte or more (a snapshot of
 * 2,000 rows): JSON already escapes C0 controls, and the rest of UNSAFE shows as a byte no other
 * character's UTF-8 holds, found by a byte search instead of a pattern run over every character.
 */
export function jsonLineBytes(value: unknown): Buffer {
  const bytes = Buffer.from(`${JSON.stringify(value)}\n`);
  return mayHoldUnsafe(bytes) ? Buffer.from(`${jsonLine(value)}\n`) : bytes;
}

/** Whether UTF-8 bytes may hold DEL (7F), a C1 control (C2 80–9F), U+2028–202E (E2 80 A8–AE) or U+2066–2069 (E2 81 A6–A9). */
function mayHoldUnsafe(bytes: Buffer): boolean {
  if (bytes.includes(0x7f)) return true;
  // C2 and E2 only ever lead a character in UTF-8, so each one found starts one.
  for (let at = bytes.indexOf(0xc2); at !== -1; at = bytes.indexOf(0xc2, at + 1)) {
    if ((bytes[at + 1] ?? 0) <= 0x9f) return true;
  }
  for (let at = bytes.indexOf(0xe2); at !== -1; at = bytes.indexOf(0xe2, at + 1)) {
    const second = bytes[at + 1];
    const third = bytes[at + 2] ?? 0;
    if ((second === 0x80 && third >= 0xa8 && third <= 0xae) || (second === 0x81 && third >= 0xa6 && third <= 0xa9)) return true;
  }
  return false;
}

/** Writes lines, each made safe, each ending in a newline. */
export function printLines(stream: NodeJS.WritableStream, lines: readonly string[]): void {
  stream.write(lines.map((line) => `${terminalLine(line)}\n`).join(''));
}

/** Writes lines made safe piece by piece already (the status table, whose marks may carry colour). */
export function printMadeSafe(stream: NodeJS.WritableStream, lines: readonly string[]): void {
  stream.write(lines.map((line) => `${line}\n`).join(''));
}

/** `lookout: <message>` on stderr, on one safe line (the first line of a longer message). */
export function printError(message: string): void {
  printLines(process.stderr, [`lookout: ${message.split('\n')[0] ?? ''}`]);
}
