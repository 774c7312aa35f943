// A cross-process lock on a folder: mkdir is atomic. The tray app and a command never write the
// store at the same time, so no read-modify-write loses another's fact.
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pidAlive } from './process';
import { errorCode } from '../problems';

const STALE_MS = 10_000;
const OWNERLESS_MS = 1_000;
const WAIT_MS = 5_000;
const nap = new Int32Array(new SharedArrayBuffer(4));

function sleep(ms: number): void {
  Atomics.wait(nap, 0, 0, ms);
}

/** The owner process is gone, or (no owner written yet) the lock is older than a write takes. */
function abandoned(lockDir: string): boolean {
  try {
    const age = Date.now() - statSync(lockDir).mtimeMs;
    let text = '';
    try {
      text = readFileSync(join(lockDir, 'owner'), 'utf8').trim();
    } catch {
      text = '';
    }
    // No owner written yet (the holder is between mkdir and its write): judge by age only.
    if (!/^\d+$/.test(text)) return age > OWNERLESS_MS;
    return !pidAlive(Number(text)) || age > STALE_MS;
  } catch {
    return false; // It went away between the calls: try again.
  }
}

export function withLock<T>(lockDir: string, work: () => T): T {
  const started = Date.now();
  for (let attempt = 0; ; attempt += 1) {
    try {
      mkdirSync(lockDir, { mode: 0o700 });
      break;
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') throw error;
      // A holder killed mid-write leaves its lock behind: taken over when its owner is gone.
      if (abandoned(lockDir)) rmSync(lockDir, { recursive: true, force: true });
      if (Date.now() - started > WAIT_MS) throw new Error(`${lockDir} is held by another Lookout process (waited ${WAIT_MS / 1000} s)`);
      sleep(Math.min(50, 2 + attempt * 5));
    }
  }
  try {
    writeFileSync(join(lockDir, 'owner'), String(process.pid), { mode: 0o600 });
    return work();
  } finally {
    rmSync(lockDir, { recursive: true, force: true });
  }
}
