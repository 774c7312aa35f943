// The answer channel is taken by one Lookout at a time: the probe of a stale socket, its removal
// and the new listen happen under a private lock file holding the taker's pid, so two Lookouts
// that both find the owner gone never remove each other's fresh socket.
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { errorCode } from '../../providers/problems';
import { runFolder } from './paths';

const takeLockPath = (home: string): string => join(runFolder(home), 'answer.take');

/** Whether that pid is a live process (EPERM: alive, another user's). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errorCode(error) === 'EPERM';
  }
}

/** Takes the lock (true), or says another live Lookout is taking the channel now (false). */
export function takeLock(home: string): boolean {
  const path = takeLockPath(home);
  try {
    const fd = openSync(path, 'wx', 0o600);
    writeSync(fd, `${process.pid}\n`);
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
  // A lock left by a Lookout that died while taking: removed, and taken on a later try.
  if (Number.isInteger(holder) && holder > 0 && !alive(holder)) rmSync(path, { force: true });
  return false;
}

export function dropLock(home: string): void {
  rmSync(takeLockPath(home), { force: true });
}
