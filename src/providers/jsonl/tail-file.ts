// Reading JSONL files incrementally: a cold read of the file's end (seeking back to a line
// boundary), the head for titles and metadata, and appends after that. Never the whole history.
import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { LineSplitter } from './line-splitter';

const CHUNK = 1024 * 1024;

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

async function readRange(handle: FileHandle, from: number, to: number, splitter: LineSplitter): Promise<{ lines: string[]; oversized: number }> {
  const lines: string[] = [];
  let oversized = 0;
  const buffer = Buffer.allocUnsafe(CHUNK);
  let position = from;
  while (position < to) {
    const { bytesRead } = await handle.read(buffer, 0, Math.min(CHUNK, to - position), position);
    if (bytesRead === 0) break;
    const result = splitter.push(buffer.subarray(0, bytesRead));
    lines.push(...result.lines);
    oversized += result.oversized;
    position += bytesRead;
  }
  return { lines, oversized };
}

/**
 * Reads the last `windowBytes` of a file. When the window starts mid-file, the bytes before the
 * first newline belong to a line we cannot see whole, so they are dropped.
 */
export async function readWindow(path: string, windowBytes: number, maxLineBytes: number): Promise<WindowRead & { reachedStart: boolean }> {
  const handle = await open(path, 'r');
  try {
    const stat = await handle.stat();
    const size = stat.size;
    let from = Math.max(0, size - windowBytes);
    if (from > 0) {
      // Seek back to a line boundary: the byte after the newline that precedes the window.
      const probe = Buffer.allocUnsafe(1);
      await handle.read(probe, 0, 1, from - 1);
      if (probe[0] !== 0x0a) from = await nextLineStart(handle, from, size);
    }
    const splitter = new LineSplitter(maxLineBytes);
    const { lines, oversized } = await readRange(handle, from, size, splitter);
    return { lines, oversized, resumeAt: size, splitter, ino: stat.ino, size, reachedStart: from === 0 };
  } finally {
    await handle.close();
  }
}

async function nextLineStart(handle: FileHandle, from: number, size: number): Promise<number> {
  const buffer = Buffer.allocUnsafe(64 * 1024);
  let position = from;
  while (position < size) {
    const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, size - position), position);
    if (bytesRead === 0) break;
    const newline = buffer.subarray(0, bytesRead).indexOf(0x0a);
    if (newline !== -1) return position + newline + 1;
    position += bytesRead;
  }
  return size;
}

/** Complete lines within the first `maxBytes` of a file (titles, session_meta). */
export async function readHead(path: string, maxBytes: number, maxLineBytes: number): Promise<{ lines: string[]; oversized: number }> {
  const handle = await open(path, 'r');
  try {
    const stat = await handle.stat();
    const splitter = new LineSplitter(maxLineBytes);
    const { lines, oversized } = await readRange(handle, 0, Math.min(stat.size, maxBytes), splitter);
    return { lines, oversized };
  } finally {
    await handle.close();
  }
}

/** Lines appended since `from`; `replaced` when the file shrank or is another file now. */
export async function readAppended(
  path: string,
  from: number,
  ino: number,
  splitter: LineSplitter,
): Promise<(WindowRead & { replaced: false }) | { replaced: true }> {
  const handle = await open(path, 'r');
  try {
    const stat = await handle.stat();
    if (stat.ino !== ino || stat.size < from) return { replaced: true };
    const { lines, oversized } = await readRange(handle, from, stat.size, splitter);
    return { replaced: false, lines, oversized, resumeAt: stat.size, splitter, ino: stat.ino, size: stat.size };
  } finally {
    await handle.close();
  }
}

/** Splits an in-memory buffer (a decompressed rollout) the same way. */
export function splitBuffer(buffer: Buffer, maxLineBytes: number): { lines: string[]; oversized: number } {
  const splitter = new LineSplitter(maxLineBytes);
  return splitter.push(buffer);
}
