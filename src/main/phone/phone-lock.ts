// Only one Lookout process sends to the phone and listens for taps (issue 49): two would send each
// notification twice, and two long-polls of one Telegram bot take each other's updates. The one
// holding run/phone.lock (its pid) does; a lock whose holder died is taken over.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { clearStalePidLock, createPidLock, pidLockHolder } from '../../providers/system/pid-lock';
import { privateFolder } from '../../providers/system/private-files';
import { runFolder } from '../answer/paths';

export const phoneLockPath = (home: string): string => join(runFolder(home), 'phone.lock');

/** True when this process holds the lock now (taken, or already its own). */
export function takePhoneLock(home: string, pid: number = process.pid): boolean {
  const path = phoneLockPath(home);
  privateFolder(runFolder(home));
  for (let attempt = 0; attempt < 2; attempt += 1) {
    if (createPidLock(path, pid)) return true;
    if (pidLockHolder(path) === pid) return true;
    // Its holder is gone: removed, and taken on the second pass (another taker may win it).
    if (!clearStalePidLock(path)) return false;
  }
  return false;
}

export function dropPhoneLock(home: string, pid: number = process.pid): void {
  const path = phoneLockPath(home);
  // Only our own: a lock another Lookout took since is left alone.
  if (pidLockHolder(path) === pid) rmSync(path, { force: true });
}
