// The middle of a Claude transcript, scanned in the background for what a cold read cannot see:
// a `custom-title` (`/rename`) or `ai-title`/`summary` record written mid-file and not appended
// again since (issue 14). Streams the file in chunks; parses only the lines a cheap text test picks.
import { closeSync, fstatSync, readSync } from 'node:fs';
import { createHash } from 'node:crypto';
import type { FileIdentity, MiddleFacts } from '../session-index';
import { parseRecord, str } from '../jsonl/parse-record';
import { openRegular } from '../system/safe-read';

/** Small reads: a background scan keeps little in memory at once (the runtime's RSS target). */
const CHUNK = 256 * 1024;
const HEAD_HASH_BYTES = 4096;

/** The file's identity now (its head hashed), or null when it cannot be read. */
export function identityOf(path: string): FileIdentity | null {
  try {
    const { fd } = openRegular(path);
    try {
      const info = fstatSync(fd);
      const head = Buffer.alloc(Math.min(HEAD_HASH_BYTES, info.size));
      readSync(fd, head, 0, head.length, 0);
      return { dev: info.dev, ino: info.ino, size: info.size, head: createHash('sha1').update(head).digest('hex') };
    } finally {
      closeSync(fd);
    }
  } catch {
    return null;
  }
}

/** Whether facts learned of `then` still hold for the file as it is `now` (it only grew). */
export function sameFile(then: FileIdentity, now: FileIdentity): boolean {
  return then.dev === now.dev && then.ino === now.ino && now.size >= then.size && then.head === now.head;
}

/**
 * Scans [from, to) for title records; `carry` holds what an earlier part found. Reads at most
 * `budget` bytes and returns where it stopped, so the caller can yield between steps.
 */
export function scanTitles(path: string, from: number, to: number, budget: number, carry: Pick<MiddleFacts, 'customTitle' | 'summaryTitle'>): { next: number; customTitle: string | null; summaryTitle: string | null } {
  let { customTitle, summaryTitle } = carry;
  const { fd } = openRegular(path);
  try {
    const buffer = Buffer.allocUnsafe(CHUNK);
    let position = from;
    let pending = '';
    const end = Math.min(to, from + budget);
    while (position < end) {
      const read = readSync(fd, buffer, 0, Math.min(CHUNK, end - position), position);
      if (read === 0) break;
      position += read;
      const text = pending + buffer.toString('utf8', 0, read);
      const lines = text.split('\n');
      pending = lines.pop() ?? '';
      // A line longer than a chunk is no title record: its start is dropped.
      if (pending.length > CHUNK) pending = '';
      for (const line of lines) {
        const start = line.slice(0, 200);
        if (!start.includes('title"') && !start.includes('"type":"summary"')) continue;
        const record = parseRecord(line);
        const type = str(record?.type);
        if (type === 'custom-title') customTitle = str(record?.customTitle) ?? customTitle;
        else if (type === 'ai-title') summaryTitle = str(record?.aiTitle) ?? str(record?.title) ?? summaryTitle;
        else if (type === 'summary') summaryTitle = str(record?.summary) ?? summaryTitle;
      }
    }
    // Stops at a line's start: the unfinished line is scanned with the next step.
    return { next: position - Buffer.byteLength(pending), customTitle, summaryTitle };
  } finally {
    closeSync(fd);
  }
}
