// Cuts one large field out of a JSON line before it is decoded. Codex's session_meta embeds the
// whole base instructions (20–45 KB) that Lookout never reads; decoding and parsing them cost
// more than the rest of a cold read of that file. JSON's structural bytes are ASCII, so the
// value's end can be found in the UTF-8 bytes without decoding them.
import { closingQuote } from './string-end';

const QUOTE = 0x22;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const SPACE = 0x20;

/** The field no status ever reads; a line is searched for it only when it is long. */
const UNREAD_MARKER = '"base_instructions":';
const LONG_LINE = 8192;

/** Index just past the JSON string that starts at `start` (a quote), or -1. */
function endOfString(bytes: Buffer, start: number): number {
  const quote = closingQuote(bytes, start);
  return quote === -1 ? -1 : quote + 1;
}

/** Index just past the JSON value that starts at `start`, or -1 when it cannot be told. */
function endOfValue(bytes: Buffer, start: number): number {
  const first = bytes[start];
  if (first === QUOTE) return endOfString(bytes, start);
  if (first !== OPEN_BRACE && first !== OPEN_BRACKET) return -1;
  let depth = 0;
  for (let at = start; at < bytes.length; at += 1) {
    const byte = bytes[at];
    if (byte === QUOTE) {
      const end = endOfString(bytes, at);
      if (end === -1) return -1;
      at = end - 1;
    } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) depth += 1;
    else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
      depth -= 1;
      if (depth === 0) return at + 1;
    }
  }
  return -1;
}

/** The line decoded, with `"key": <value>` replaced by `"key": null`; decoded whole when not found. */
export function decodeWithout(line: Buffer, marker: string): string {
  const at = line.indexOf(marker);
  if (at === -1) return line.toString('utf8');
  let start = at + Buffer.byteLength(marker);
  while (line[start] === SPACE) start += 1;
  const end = endOfValue(line, start);
  if (end === -1) return line.toString('utf8');
  return `${line.toString('utf8', 0, start)}null${line.toString('utf8', end)}`;
}

/** One line's bytes as text, without the large field Lookout never reads. */
export function decodeLine(line: Buffer): string {
  return line.length > LONG_LINE ? decodeWithout(line, UNREAD_MARKER) : line.toString('utf8');
}

/** The same cut for a line already decoded (a session_meta met in a tail window). */
export function withoutUnreadField(line: string): string {
  return line.length > LONG_LINE && line.includes(UNREAD_MARKER) ? decodeWithout(Buffer.from(line, 'utf8'), UNREAD_MARKER) : line;
}
