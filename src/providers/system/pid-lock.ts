// A lock that is a private file holding its taker's pid: made with O_EXCL (one taker wins), and
// known stale when that pid is no live process. The answer channel's take-over and the phone's
// one sender both use it.
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { pidAlive } from './process';

/** Creates the lock for `pid`: true when made now, false when it is there already (or cannot be made). */
export function createPidLock(path: string, pid: number = process.pid): boolean {
  try {
    const fd = openSync(path, 'wx', 0o600);
    writeSync(fd, `${pid}\n`);
    closeSync(fd);
    return true;
  } catch {
    // EEXIST is a lock someone holds; any other failure takes nothing either.
    return false;
  }
}

/** The pid in the lock, or null when it cannot be read or names no pid. */
export function pidLockHolder(path: string): number | null {
  try {
    const holder = Number(readFileSync(path, 'utf8').trim());
    return Number.isInteger(holder) && holder > 0 ? holder : null;
  } catch {
    return null;
  }
}

/**
 * Removes a lock whose holder is gone (a Lookout that died holding it); true when it was stale. A
 * lock naming no pid yet is being written by its taker, and is left alone.
 */
export function clearStalePidLock(path: string): boolean {
  const holder = pidLockHolder(path);
  if (holder === null || pidAlive(holder)) return false;
  rmSync(path, { force: true });
  return true;
}
