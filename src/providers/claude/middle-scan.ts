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
import type { BlockFinder } from './title-search';
import { LINE_START, SEARCH_CHUNK, blockFinder, markerHits } from './title-search';

/**
 * The starts of the whole lines in data[from, to) (to: a newline) where a title marker ends within
 * the line's first LINE_START bytes, in file order: a byte search (title-search.ts), so the lines of
 * prompts, tool calls and results around them (nearly all of a big transcript) are never decoded.
 */
function titleLineStarts(search: BlockFinder, data: Buffer, from: number, to: number): number[] {
  const starts = new Set<number>();
  for (const hit of markerHits(search, data, from, to)) {
    const start = hit.at === 0 ? 0 : data.lastIndexOf(10, hit.at - 1) + 1;
    if (start >= from && hit.at + hit.length - start <= LINE_START) starts.add(start);
  }
  return [...starts].sort((a, b) => a - b);
}

/** The longest title record read whole. */
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
  const { fd, dev, ino, size, mtimeMs } = openRegular(path);
  try {
    // Checked through the descriptor the scan reads: what it finds is never put on another file.
    // Untouched since the index knew it (same size and time): its head is that head, unhashed.
    const untouched = size === identity.size && mtimeMs === identity.mtimeMs;
    if (!sameOrGrown(identity, { dev, ino, size }) || size < to || (!untouched && headHash(fd, size) !== identity.head)) return null;
    const search = blockFinder();
    // Read where the search looks (WebAssembly memory): a gigabyte's scan allocates no buffer per step.
    const buffer = search.buffer;
    // Each read starts at a line's start: the unfinished line at a read's end is read again whole
    // with the next (a line is ~1 KB; keeping its piece cost a copy and a join per read, and their garbage).
    let position = from;
    let lineStart = from;
    // Inside a line longer than a read: no title record is that long, so it is read through to its end.
    let skipping = false;
    const end = Math.min(to, from + budget);
    while (position < end) {
      const read = readSync(fd, buffer, 0, Math.min(SEARCH_CHUNK, end - position), position);
      if (read === 0) break;
      const data = buffer.subarray(0, read);
      if (skipping) {
        const first = data.indexOf(10);
        position += first === -1 ? read : first + 1;
        if (first !== -1) {
          skipping = false;
          lineStart = position;
        }
        continue;
      }
      const lastNewline = data.lastIndexOf(10);
      if (lastNewline === -1) {
        // No whole line here: the middle's last piece, a line longer than a read, or the budget's end
        // (where the step's own first line is passed over, as longer than a step).
        if (position + read >= to) position = to;
        else if (read === SEARCH_CHUNK) {
          skipping = true;
          position += read;
          continue;
        } else if (position === from) position += read;
        break;
      }
      // Whole lines: only those a title marker falls in (near their start) are decoded at all.
      for (const start of titleLineStarts(search, data, 0, lastNewline)) take(data.subarray(start, data.indexOf(10, start)));
      lineStart = position + lastNewline + 1;
      position = lineStart;
    }
    // Stops at a line's start: the unfinished line is read again with the next step — unless it
    // is longer than a step, when it is passed over (no title record is that long).
    const next = lineStart > from || position >= to ? (position >= to ? position : lineStart) : position;
    return { next, ...titles };
  } finally {
    closeSync(fd);
  }
}
