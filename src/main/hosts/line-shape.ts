// What a host's line holds, found in one pass over its bytes before anything parses it (issue 25):
// how deep it nests, its top-level keys, how many rows its `sessions` array has and how many
// values in all. JSON.parse of 30 MB of nested arrays costs seconds and gigabytes: a line that
// nests deeper than a snapshot can, names a key a feed never writes, or holds more than its rows
// could need is refused unparsed.
import { closingQuote } from '../../providers/jsonl/string-end';

/** A snapshot nests 8 deep (a row's answer's question's option); a newer Lookout may add a few. */
const DEPTH_MAX = 16;
/** What one row may take on average: a real one takes about a kilobyte. */
const ROW_BYTES_MAX = 64 * 1024;
/** Values (containers and items) one row may hold on average: a real row holds about sixty. */
const ROW_VALUES_MAX = 1024;
/**
 * Room besides: the snapshot's head, and the few rows that carry a whole command or question to
 * answer (64,000 characters, escaped; 20 questions of 50 options). Bytes in strings cost a parse
 * little; values (each an allocation) are what cost seconds and gigabytes, so they are held tight.
 */
const HEAD_BYTES_MAX = 4 * 1024 * 1024;
const HEAD_VALUES_MAX = 16 * 1024;
/** The top-level keys a feed writes: a snapshot's, and an answer's (`pane` from a Lookout before issue 25, `lookout` the hello's, issue 26; a change line's, issue 27; `limits`, issue 46). */
const FEED_KEYS: ReadonlySet<string> = new Set([
  'schemaVersion',
  'now',
  'attention',
  'sessions',
  'answered',
  'refused',
  'pane',
  'lookout',
  'seq',
  'delta',
  'removed',
  'limits',
]);

const QUOTE = 0x22;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
/** A key longer than this is no key a feed writes (kept short while scanning). */
const KEY_MAX = 32;

/** Bytes and values the rows seen so far allow (rows come first in a feed's line, its head is small). */
const bytesFor = (rows: number): number => HEAD_BYTES_MAX + rows * ROW_BYTES_MAX;
const valuesFor = (rows: number): number => HEAD_VALUES_MAX + rows * ROW_VALUES_MAX;

/**
 * Why the line is refused before parsing, or null when its shape is one a feed could send. The
 * bounds hold for every prefix too, so a hostile line is refused early (4 MB in, not 32).
 */
export function refuseShape(bytes: Buffer): string | null {
  let depth = 0;
  let values = 0;
  let rows = 0;
  /** At depth 1 of an object, the next string is a key (after `{` or `,`). */
  let keyNext = false;
  let topIsObject = false;
  let lastKey = '';
  /** The `sessions` array is open (its direct objects are rows). */
  let inSessions = false;
  let byteLimit = bytesFor(0);
  for (let index = 0; index < bytes.length; index += 1) {
    if (index > byteLimit) return `${bytes.length} bytes for ${rows} rows`;
    const byte = bytes[index];
    if (byte === QUOTE) {
      const end = closingQuote(bytes, index);
      // An unterminated string: JSON.parse says so, at no great cost.
      if (end === -1) return null;
      if (depth === 1 && topIsObject && keyNext) {
        if (end - index - 1 > KEY_MAX) return 'a top-level key no feed writes';
        lastKey = bytes.toString('utf8', index + 1, end);
        if (!FEED_KEYS.has(lastKey)) return `a top-level key no feed writes ("${lastKey.replace(/[^A-Za-z0-9_-]/g, '?')}")`;
        keyNext = false;
      }
      index = end;
      continue;
    }
    if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      if (depth === 0) topIsObject = byte === OPEN_OBJECT;
      if (depth === 1 && topIsObject && byte === OPEN_ARRAY && lastKey === 'sessions') inSessions = true;
      if (depth === 2 && inSessions && byte === OPEN_OBJECT) {
        rows += 1;
        byteLimit = bytesFor(rows);
      }
      depth += 1;
      values += 1;
      if (depth > DEPTH_MAX) return `nesting over ${DEPTH_MAX} deep`;
      if (depth === 1) keyNext = topIsObject;
    } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
      depth -= 1;
      if (depth === 1) inSessions = false;
      continue;
    } else if (byte === COMMA) {
      values += 1;
      if (depth === 1) keyNext = topIsObject;
    } else {
      continue;
    }
    if (values > valuesFor(rows)) return `${values} values for ${rows} rows`;
  }
  if (bytes.length > bytesFor(rows)) return `${bytes.length} bytes for ${rows} rows`;
  if (values > valuesFor(rows)) return `${values} values for ${rows} rows`;
  return null;
}
