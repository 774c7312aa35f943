// The middle of a Claude transcript, scanned in the background for what a cold read cannot see:
// a `custom-title` (`/rename`) or `ai-title`/`summary` record written mid-file and not appended
// again since (issue 14). Streams the file in chunks; parses only the lines a cheap text test picks.
import { closeSync, readSync } from 'node:fs';
import type { FileIdentity, MiddleScan } from '../session-index';
import { headHash, sameOrGrown } from '../file-index';
import { parseRecord, str } from '../jsonl/parse-record';
import { openRegular } from '../system/safe-read';

/** Small reads: a background scan keeps little in memory at once (the runtime's RSS target). */
const CHUNK = 256 * 1024;

/** Whether the file at `path` is still the one the index knows (a scan step reads it by name). */
export function stillSame(path: string, identity: FileIdentity): boolean {
  try {
    const { fd, dev, ino, size } = openRegular(path);
    try {
      return sameOrGrown(identity, { dev, ino, size }) && headHash(fd, size) === identity.head;
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
}

let shared: Buffer | null = null;
/** One read buffer for every scan step: a gigabyte's scan allocates no buffer per step (memory outside the heap). */
function scanBuffer(): Buffer {
  shared ??= Buffer.allocUnsafe(CHUNK);
  return shared;
}

/** How much of a line's start the text test looks at, and the longest title record read whole. */
const LINE_START = 200;
const RECORD_MAX = 64 * 1024;

/** Whether a line's start names a title record (a cheap test on at most 200 bytes, no full decode). */
function titleLike(start: string): boolean {
  return start.includes('title"') || start.includes('"type":"summary"');
}

/**
 * Scans [from, to) for title records; `carry` holds what an earlier part found. Reads at most
 * `budget` bytes and returns where it stopped (a line's start), so the caller can yield between
 * steps. Only the first bytes of each line are decoded: a scan of a gigabyte makes no big strings.
 */
export function scanTitles(path: string, from: number, to: number, budget: number, carry: Pick<MiddleScan, 'customTitle' | 'summaryTitle'>): { next: number; customTitle: string | null; summaryTitle: string | null } {
  let { customTitle, summaryTitle } = carry;
  const take = (line: Buffer): void => {
    if (!titleLike(line.toString('utf8', 0, Math.min(line.length, LINE_START))) || line.length > RECORD_MAX) return;
    const record = parseRecord(line.toString('utf8'));
    const type = str(record?.type);
    if (type === 'custom-title') customTitle = str(record?.customTitle) ?? customTitle;
    else if (type === 'ai-title') summaryTitle = str(record?.aiTitle) ?? str(record?.title) ?? summaryTitle;
    else if (type === 'summary') summaryTitle = str(record?.summary) ?? summaryTitle;
  };
  const { fd } = openRegular(path);
  try {
    const buffer = scanBuffer();
    let position = from;
    // The line begun in an earlier chunk: where it started, and its first bytes (enough to test and, if short, to parse).
    let lineStart = from;
    let partial: Buffer[] = [];
    let partialBytes = 0;
    const end = Math.min(to, from + budget);
    while (position < end) {
      const read = readSync(fd, buffer, 0, Math.min(CHUNK, end - position), position);
      if (read === 0) break;
      let offset = 0;
      for (let newline = buffer.indexOf(10, 0); newline !== -1 && newline < read; newline = buffer.indexOf(10, offset)) {
        const piece = buffer.subarray(offset, newline);
        if (partialBytes === 0) take(piece);
        else if (partialBytes + piece.length <= RECORD_MAX) take(Buffer.concat([...partial, piece]));
        else if (partialBytes < LINE_START) take(Buffer.concat([...partial, piece.subarray(0, LINE_START)]));
        partial = [];
        partialBytes = 0;
        offset = newline + 1;
        lineStart = position + offset;
      }
      // The unfinished line: only as much of it as a title record could be is kept.
      if (offset < read && partialBytes <= RECORD_MAX) {
        const rest = buffer.subarray(offset, read);
        partial.push(Buffer.from(rest.subarray(0, Math.max(0, RECORD_MAX + 1 - partialBytes))));
        partialBytes += rest.length;
      } else if (offset < read) partialBytes += read - offset;
      position += read;
    }
    // Stops at a line's start: the unfinished line is read again with the next step — unless it
    // is longer than a step, when it is passed over (no title record is that long).
    const next = lineStart > from || position >= to ? (position >= to ? position : lineStart) : position;
    return { next, customTitle, summaryTitle };
  } finally {
    closeSync(fd);
  }
}
