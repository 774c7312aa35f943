// Codex 0.169+ keeps `thread-writer-locks/<thread id>.lock`, flock-held by the process that writes
// the thread (the TUI's app-server). A held lock proves a writer, not a state; a lock nobody holds
// under a turn the rollout left open proves the writer died mid-turn (issue 22).
import { lstatSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const LOCK_SOURCE = 'codex.thread-writer-lock';

export type WriterLock = 'held' | 'free' | 'unknown';

/** The locks the kernel holds now, as `<major>:<minor>:<inode>` (hex device numbers, as /proc/locks writes them). */
export class LockTable {
  private constructor(private readonly held: ReadonlySet<string>) {}

  /** /proc/locks on Linux; null where there is none (then no lock can be judged free). */
  static read(path = '/proc/locks'): LockTable | null {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      return null;
    }
    const held = new Set<string>();
    for (const line of text.split('\n')) {
      // "7: FLOCK  ADVISORY  WRITE 25422 fe:00:2149200 0 EOF"; a blocked waiter ("->") holds nothing.
      const match = /^\d+:\s+(FLOCK|POSIX|OFDLCK)\s+\S+\s+\S+\s+-?\d+\s+([0-9a-f]+):([0-9a-f]+):(\d+)\s/i.exec(line);
      if (match === null) continue;
      held.add(`${Number.parseInt(match[2] ?? '', 16)}:${Number.parseInt(match[3] ?? '', 16)}:${match[4] ?? ''}`);
    }
    return new LockTable(held);
  }

  /** Whether some process holds a lock on the file with this device and inode. */
  holds(dev: number, ino: number): boolean {
    return this.held.has(`${major(dev)}:${minor(dev)}:${ino}`);
  }
}

/** Linux's dev_t split as the kernel prints it (glibc's gnu_dev_major / gnu_dev_minor). */
function major(dev: number): number {
  return Number(((BigInt(dev) >> 8n) & 0xfffn) | ((BigInt(dev) >> 32n) & ~0xfffn));
}

function minor(dev: number): number {
  return Number((BigInt(dev) & 0xffn) | ((BigInt(dev) >> 12n) & ~0xffn));
}

/** The thread's writer lock: held, free, or unknown (no lock file, or no lock table to ask). */
export function writerLock(root: string, threadId: string, table: LockTable | null): WriterLock {
  if (table === null || !/^[0-9a-f-]{8,64}$/i.test(threadId)) return 'unknown';
  try {
    // Only looked at, never opened: a lock file is empty, and opening one could block on a FIFO.
    const stat = lstatSync(join(root, 'thread-writer-locks', `${threadId}.lock`));
    if (!stat.isFile()) return 'unknown';
    return table.holds(stat.dev, stat.ino) ? 'held' : 'free';
  } catch {
    return 'unknown';
  }
}
