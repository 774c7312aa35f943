// The middle of a Claude transcript, scanned in the background for what a cold read cannot see:
// a `custom-title` (`/rename`) or `ai-title`/`summary` record written mid-file and not appended
// again since (issue 14). Streams the file in chunks; parses only the lines a cheap text test picks.
import { closeSync, readSync } from 'node:fs';
import type { FileIdentity } from '../session-index';
import { headHash, sameOrGrown } from '../file-index';
import { parseRecord } from '../jsonl/parse-record';
import type { Titles } from './transcript';
import { applyTitleRecord, isTitleLine } from './transcript';
import { openRegular } from '../system/safe-read';

/** Small reads: a background scan keeps little in memory at once (the runtime's RSS target). */
const CHUNK = 256 * 1024;

let shared: Buffer | null = null;
/** One read buffer for every scan step: a gigabyte's scan allocates no buffer per step (memory outside the heap). */
function scanBuffer(): Buffer {
  shared ??= Buffer.allocUnsafe(CHUNK);
  return shared;
}

/** How much of a line's start the text test looks at, and the longest title record read whole. */
const LINE_START = 200;
const RECORD_MAX = 64 * 1024;

/**
 * Scans [from, to) of the file the index knows as `identity` for title records; `carry` holds what
 * an earlier part found. Null when the file at `path` is no longer that file (replaced, cut short,
 * rewritten). Reads at most `budget` bytes and returns where it stopped (a line's start), so the
 * caller can yield between steps. Only the first bytes of each line are decoded: a scan of a
 * gigabyte makes no big strings.
 */
export function scanTitles(path: string, identity: FileIdentity, from: number, to: number, budget: number, carry: Titles): ({ next: number } & Titles) | null {
  const titles: Titles = { customTitle: carry.customTitle, summaryTitle: carry.summaryTitle };
  const take = (line: Buffer): void => {
    if (line.length > RECORD_MAX || !isTitleLine(line.toString('utf8', 0, Math.min(line.length, LINE_START)))) return;
    const record = parseRecord(line.toString('utf8'));
    if (record !== null) applyTitleRecord(titles, record);
  };
  const { fd, dev, ino, size } = openRegular(path);
  try {
    // Checked through the descriptor the scan reads: what it finds is never put on another file.
    if (!sameOrGrown(identity, { dev, ino, size }) || size < to || headHash(fd, size) !== identity.head) return null;
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
    return { next, ...titles };
  } finally {
    closeSync(fd);
  }
}
