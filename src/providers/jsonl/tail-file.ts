// Reading JSONL files incrementally: a cold read of the file's end (seeking back to a line
// boundary), the head for titles and metadata, and appends after that. Never the whole history.
// Reads are synchronous: they are small, from the page cache, and far cheaper than promise I/O
// at two thousand files (see docs/performance.md).
import { closeSync, readSync } from 'node:fs';
import { openRegular } from '../system/safe-read';
import { LineSplitter } from './line-splitter';
import { decodeLine } from './skip-field';

const CHUNK = 1024 * 1024;
/**
 * Heads are read in steps: most need one short line (4 KB); past the first, each step reads at
 * least as much again as was read (16 KB at least), so a long head costs a few reads, not one per 16 KB.
 */
const HEAD_FIRST_CHUNK = 4 * 1024;
const HEAD_STEP = 16 * 1024;
const shared = Buffer.allocUnsafe(CHUNK);
/** Heads are read from the start into this buffer, which grows to the longest head read (≤ `headBytes`). */
let headBuffer: Buffer = Buffer.allocUnsafe(64 * 1024);
/** The last head read: which descriptor, and how many of its first bytes `headBuffer` holds. */
let lastHead = { fd: -1, filled: 0 };

/** The first `max` bytes of the file whose head `fd` just read, if that read holds them all (no read again). */
export function headPrefix(fd: number, max: number): Buffer | null {
  return lastHead.fd === fd && lastHead.filled >= max ? headBuffer.subarray(0, max) : null;
}

export interface WindowRead {
  lines: string[];
  oversized: number;
  /** Where the next read starts; the splitter holds any unterminated line up to here. */
  resumeAt: number;
  splitter: LineSplitter;
  /** The file's identity and size when read. */
  ino: number;
  size: number;
}

/** A regular file, opened without blocking (a FIFO or device is refused: safe-read.ts). */
function withFile<T>(path: string, use: (file: OpenFile) => T): T {
  const file = openRegular(path);
  try {
    return use(file);
  } finally {
    closeSync(file.fd);
  }
}

function readRange(fd: number, from: number, to: number, splitter: LineSplitter): { lines: string[]; oversized: number; lastNewline: number } {
  const lines: string[] = [];
  let oversized = 0;
  let lastNewline = -1;
  let position = from;
  while (position < to) {
    const bytesRead = readSync(fd, shared, 0, Math.min(CHUNK, to - position), position);
    if (bytesRead === 0) break;
    const chunk = shared.subarray(0, bytesRead);
    const newline = chunk.lastIndexOf(0x0a);
    if (newline !== -1) lastNewline = position + newline;
    const result = splitter.push(chunk);
    // Indexed: without the optimising compiler a for-of allocates at every step (docs/performance.md).
    for (let index = 0; index < result.lines.length; index += 1) lines.push(result.lines[index] ?? '');
    oversized += result.oversized;
    position += bytesRead;
  }
  return { lines, oversized, lastNewline };
}

/** An open file, read in windows from its end and, when needed, from its head. */
export interface OpenFile {
  fd: number;
  ino: number;
  dev: number;
  size: number;
  mtimeMs: number;
}

export function withOpenFile<T>(path: string, use: (file: OpenFile) => T): T {
  return withFile(path, use);
}

/**
 * Reads the last `windowBytes` of a file (or, with `before`, the `windowBytes` that precede that
 * offset, to widen an earlier read). When the window starts mid-line, the bytes before the first
 * newline belong to a line we cannot see whole, so they are dropped.
 */
export function readWindow(
  file: OpenFile,
  windowBytes: number,
  maxLineBytes: number,
  before: number | null = null,
): WindowRead & { reachedStart: boolean; from: number; lastNewline: number } {
  const { fd, size } = file;
  const end = before === null ? size : Math.min(before, size);
  const start = Math.max(0, end - windowBytes);
  // Read from one byte early: everything up to the first newline belongs to a line we cannot
  // see whole (or, if that byte is the newline, to none), so the splitter drops it silently.
  const splitter = new LineSplitter(maxLineBytes, start > 0);
  const { lines, oversized, lastNewline } = readRange(fd, Math.max(0, start - 1), end, splitter);
  const from = start === 0 ? 0 : splitter.inLeadingLine ? end : start - 1 + splitter.leadingBytes;
  // Appends resume at the start of the unfinished last line, read whole once its newline comes
  // (a line longer than the window would otherwise be lost). With no newline at all in the
  // window, that line began before it: it is skipped, and counted when it ends.
  if (lastNewline === -1 && start > 0) return { lines, oversized, resumeAt: size, splitter, ino: file.ino, size, reachedStart: false, from, lastNewline };
  const resumeAt = lastNewline === -1 ? 0 : lastNewline + 1;
  return { lines, oversized, resumeAt, splitter: new LineSplitter(maxLineBytes), ino: file.ino, size, reachedStart: start === 0, from, lastNewline };
}

/**
 * Hands the complete lines of a file's first `maxBytes` to `take`, one at a time, and stops as
 * soon as `take` says it has what it needs (titles, session_meta): no line after that is read.
 * `wants` sees a line's first bytes; a line it declines is never decoded whole.
 */
export function readHead(
  file: OpenFile,
  maxBytes: number,
  maxLineBytes: number,
  take: (line: string) => boolean,
  wants: (prefix: string) => boolean = () => true,
  firstChunk: number = HEAD_FIRST_CHUNK,
): void {
  const size = Math.min(file.size, maxBytes);
  let filled = 0;
  lastHead = { fd: file.fd, filled: 0 };
  let start = 0;
  let step = firstChunk;
  while (filled < size) {
    const want = Math.min(step, size - filled);
    // The head is read into one contiguous buffer: a long first line is never copied or joined.
    if (headBuffer.length < filled + want) headBuffer = grown(headBuffer, filled, filled + want);
    const bytesRead = readSync(file.fd, headBuffer, filled, want, filled);
    if (bytesRead === 0) return;
    const scanned = filled;
    filled += bytesRead;
    lastHead = { fd: file.fd, filled };
    // Growing steps: a head of 60 KB (a Codex rollout's instructions) is three reads, not five.
    step = Math.max(HEAD_STEP, filled);
    const view = headBuffer.subarray(0, filled);
    for (let newline = view.indexOf(0x0a, scanned); newline !== -1; newline = view.indexOf(0x0a, start)) {
      const line = view.subarray(start, newline);
      start = newline + 1;
      if (line.length > maxLineBytes || !wants(line.toString('utf8', 0, Math.min(line.length, 256)))) continue;
      if (take(decodeLine(line))) return;
    }
  }
}

function grown(buffer: Buffer, keep: number, atLeast: number): Buffer {
  const bigger = Buffer.allocUnsafe(Math.max(atLeast, buffer.length * 2));
  buffer.copy(bigger, 0, 0, keep);
  return bigger;
}

/**
 * Lines appended since `from`; `replaced` when the file shrank, is another file now, or was
 * rewritten in place (the byte before `from` is no longer the newline it was).
 */
export function readAppended(path: string, from: number, ino: number, splitter: LineSplitter): (WindowRead & { replaced: false }) | { replaced: true } {
  return withFile(path, ({ fd, ino: currentIno, size }) => {
    const stat = { ino: currentIno, size };
    if (stat.ino !== ino || stat.size < from) return { replaced: true } as const;
    if (from > 0 && !splitter.midLine) {
      readSync(fd, shared, 0, 1, from - 1);
      if (shared[0] !== 0x0a) return { replaced: true } as const;
    }
    const { lines, oversized, lastNewline } = readRange(fd, from, stat.size, splitter);
    // Resume where the last complete line ended; a line still being written is read again whole.
    if (splitter.midLine && lastNewline !== -1 && !splitter.inLeadingLine) {
      return {
        replaced: false,
        lines,
        oversized,
        resumeAt: lastNewline + 1,
        splitter: new LineSplitter(splitter.maxLineBytes),
        ino: stat.ino,
        size: stat.size,
      } as const;
    }
    return { replaced: false, lines, oversized, resumeAt: stat.size, splitter, ino: stat.ino, size: stat.size } as const;
  });
}

/**
 * Whether the bytes from `from` to `to` hold more than `limit` newlines: a cheap scan (no
 * decoding) that tells a burst of tiny lines from a few long ones before any is parsed.
 */
export function moreLinesThan(path: string, from: number, to: number, limit: number): boolean {
  return withFile(path, ({ fd }) => {
    let count = 0;
    for (let position = from; position < to; ) {
      const bytesRead = readSync(fd, shared, 0, Math.min(CHUNK, to - position), position);
      if (bytesRead === 0) return false;
      for (let at = shared.indexOf(0x0a, 0); at !== -1 && at < bytesRead; at = shared.indexOf(0x0a, at + 1)) {
        count += 1;
        if (count > limit) return true;
      }
      position += bytesRead;
    }
    return false;
  });
}
