// A snapshot as one JSON line, each row's bytes kept with the row (issue 27): the engine hands back
// the very same row object while its derivation holds, so a change to one row of 2,000 encodes one
// row afresh, and the line is a copy of kept bytes, not a 1.2 MB string to build and encode again.
// The bytes are exactly jsonLine(snapshot) followed by a newline, in UTF-8.
import { jsonLine, jsonLineBytes } from './terminal-text';

const rowBytes = new WeakMap<object, Buffer>();
/** Stands for the rows in the snapshot's frame; its JSON cannot occur anywhere else in that frame but once. */
const ROWS = '\u2063lookout-rows\u2063';
const MARK = JSON.stringify(ROWS);

/** Bytes of their own (not a slice of the shared pool, which would keep 8 KB alive for one row). */
function ownBytes(text: string): Buffer {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  bytes.write(text);
  return bytes;
}

/** A row's bytes after a comma: the line is one part per row (the first row's without its comma). */
function bytesOf(row: object): Buffer {
  let bytes = rowBytes.get(row);
  if (bytes === undefined) {
    bytes = ownBytes(`,${jsonLine(row)}`);
    rowBytes.set(row, bytes);
  }
  return bytes;
}

/** The line's UTF-8 bytes, newline included. */
export function snapshotJsonBytes<S extends { sessions: readonly object[] }>(snapshot: S): Buffer {
  const frame = jsonLine({ ...snapshot, sessions: [ROWS] });
  const at = frame.indexOf(MARK);
  // Another field carrying the same text (never written by Lookout): the plain way, exact either way.
  if (at === -1 || frame.indexOf(MARK, at + 1) !== -1) return jsonLineBytes(snapshot);
  const parts: Buffer[] = [Buffer.from(frame.slice(0, at))];
  for (const row of snapshot.sessions) {
    const bytes = bytesOf(row);
    parts.push(parts.length === 1 ? bytes.subarray(1) : bytes);
  }
  parts.push(Buffer.from(`${frame.slice(at + MARK.length)}\n`));
  return Buffer.concat(parts);
}
