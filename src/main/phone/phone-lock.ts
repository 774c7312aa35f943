// Only one Lookout process sends to the phone and listens for taps (issue 49): two would send each
// notification twice, and two long-polls of one Telegram bot take each other's updates. The one
// holding run/phone.lock (its pid) does; a lock whose holder died is taken over.
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { errorCode } from '../../providers/problems';
import { privateFolder } from '../../providers/system/private-files';
import { runFolder } from '../answer/paths';

export const phoneLockPath = (home: string): string => join(runFolder(home), 'phone.lock');

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errorCode(error) === 'EPERM';
  }
}

/** True when this process holds the lock now (taken, or already its own). */
export function takePhoneLock(home: string, pid: number = process.pid): boolean {
  const path = phoneLockPath(home);
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      privateFolder(runFolder(home));
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, `${pid}\n`);
      closeSync(fd);
      return true;
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') return false;
    }
    let holder = Number.NaN;
    try {
      holder = Number(readFileSync(path, 'utf8').trim());
    } catch {
      return false;
    }
    if (holder === pid) return true;
    if (Number.isInteger(holder) && holder > 0 && alive(holder)) return false;
    // Its holder is gone: removed, and taken on the second pass (another taker may win it).
    rmSync(path, { force: true });
  }
  return false;
}

export function dropPhoneLock(home: string, pid: number = process.pid): void {
  const path = phoneLockPath(home);
  try {
    if (Number(readFileSync(path, 'utf8').trim()) === pid) rmSync(path, { force: true });
  } catch {
    // Not there, or not readable: nothing of ours to drop.
  }
}
