// The answer channel is taken by one Lookout at a time: the probe of a stale socket, its removal
// and the new listen happen under a private lock file holding the taker's pid, so two Lookouts
// that both find the owner gone never remove each other's fresh socket.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { clearStalePidLock, createPidLock } from '../../providers/system/pid-lock';
import { runFolder } from './paths';

const takeLockPath = (home: string): string => join(runFolder(home), 'answer.take');

/** Takes the lock (true), or says another live Lookout is taking the channel now (false). */
export function takeLock(home: string): boolean {
  const path = takeLockPath(home);
  if (createPidLock(path)) return true;
  // A lock left by a Lookout that died while taking: removed, and taken on a later try.
  clearStalePidLock(path);
  return false;
}

export function dropLock(home: string): void {
  rmSync(takeLockPath(home), { force: true });
}
