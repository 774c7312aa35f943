// A snapshot as one JSON line, each row's bytes kept with the row (issue 27): the engine hands back
// the very same row object while its derivation holds, so a change to one row of 2,000 encodes one
// row afresh, and the line is a copy of kept bytes, not a 1.2 MB string to build and encode again.
// The bytes are exactly jsonLine(snapshot) followed by a newline, in UTF-8.
import { jsonLine, jsonLineBytes } from '../text/terminal-text';

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

/** The line's bytes in parts: the frame's start, one part per row, the frame's end (to write as they are, without a copy). */
export function lineParts<S extends { sessions: readonly object[] }>(snapshot: S): Buffer[] {
  const frame = jsonLine({ ...snapshot, sessions: [ROWS] });
  const at = frame.indexOf(MARK);
  // Another field carrying the same text (never written by Lookout): the plain way, exact either way.
  if (at === -1 || frame.indexOf(MARK, at + 1) !== -1) return [jsonLineBytes(snapshot)];
  const parts: Buffer[] = [Buffer.from(frame.slice(0, at))];
  for (const row of snapshot.sessions) {
    const bytes = bytesOf(row);
    parts.push(parts.length === 1 ? bytes.subarray(1) : bytes);
  }
  parts.push(Buffer.from(`${frame.slice(at + MARK.length)}\n`));
  return parts;
}

/** The line's UTF-8 bytes, newline included. */
export function snapshotJsonBytes<S extends { sessions: readonly object[] }>(snapshot: S): Buffer {
  return Buffer.concat(lineParts(snapshot));
}

/**
 * How long a line handed on keeps its memory for the next: lines come every half second or so
 * while sessions change (the first pass, a busy agent), and a watch quiet for longer than the heap
 * settle's wait (3 s) gives the memory back with the settle's collection.
 */
const SPARE_KEPT_MS = 2_000;

/**
 * One output's lines. A line the output has handed on (its write done: written to a file, or taken
 * whole by a pipe's reader) lends its memory to the next: a fresh buffer of the snapshot's size each time
 * cost page faults (`npm run bench`) and left the collector a megabyte of outside memory each time.
 */
export class SnapshotLines {
  private spare: Buffer | null = null;
  private forget: NodeJS.Timeout | null = null;

  /** `keepMs`: how long a line's memory waits for the next; a quiet watch holds none (issue 51: 13 MB at 20,000 rows). */
  constructor(private readonly keepMs: number = SPARE_KEPT_MS) {}

  line<S extends { sessions: readonly object[] }>(snapshot: S): Buffer {
    this.stopForgetting();
    const parts = lineParts(snapshot);
    let length = 0;
    for (const part of parts) length += part.length;
    // Room to grow: a row or two more does not need new memory.
    const into = this.spare !== null && this.spare.length >= length ? this.spare : Buffer.allocUnsafeSlow(length + (length >> 3));
    this.spare = null;
    let at = 0;
    for (const part of parts) at += part.copy(into, at);
    return into.subarray(0, length);
  }

  /** A line this gave has left the process: nothing holds its memory now. */
  handedOn(line: Uint8Array): void {
    this.spare = Buffer.from(line.buffer, line.byteOffset, line.buffer.byteLength - line.byteOffset);
    this.stopForgetting();
    this.forget = setTimeout(() => {
      this.forget = null;
      this.spare = null;
    }, this.keepMs);
    // Forgetting is never a reason to stay alive.
    this.forget.unref();
  }

  private stopForgetting(): void {
    if (this.forget !== null) clearTimeout(this.forget);
    this.forget = null;
  }
}
