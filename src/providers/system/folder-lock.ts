// A cross-process lock on a folder. The tray app and a command never write the store at the same
// time, so no read-modify-write loses another's fact.
//
// A lock is a folder holding one file, `holder-<pid>-<nonce>`, that names its holder. It is built
// aside and renamed into place, so a lock never exists without its holder (a holder descheduled
// after taking it is never judged ownerless). Removing a holder's file is the one step that frees a
// lock, its holder's or a taker-over's: only one process can unlink a given name, so nobody frees
// a lock that another process has taken meanwhile. The folder left empty is free: renaming a
// staged lock onto an empty folder succeeds, and rmdir removes only an empty one.
import { lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, utimesSync, writeFileSync, unlinkSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { pidAlive } from './process';
import { errorCode } from '../problems';

const STALE_MS = 10_000;
const WAIT_MS = 5_000;
const HOLDER = /^holder-(\d+)-[0-9a-f]+$/;
/** What an older Lookout's lock holds: its holder's pid, written after its mkdir. */
const LEGACY_OWNER = 'owner';
const nap = new Int32Array(new SharedArrayBuffer(4));

function sleep(ms: number): void {
  Atomics.wait(nap, 0, 0, ms);
}

/** Whether the holder named `name` inside `lockDir` has gone (its process ended, or it held too long). */
function abandoned(lockDir: string, name: string): boolean {
  try {
    const path = join(lockDir, name);
    const age = Date.now() - lstatSync(path).mtimeMs;
    const pid = name === LEGACY_OWNER ? readFileSync(path, 'utf8').trim() : (HOLDER.exec(name)?.[1] ?? '');
    // An older Lookout's lock whose pid is not written yet: judged by age alone.
    if (!/^\d+$/.test(pid)) return age > STALE_MS;
    return !pidAlive(Number(pid)) || age > STALE_MS;
  } catch {
    return false; // It went away between the calls: try again.
  }
}

/** Frees the lock when its holder has gone; leaves a live holder's lock, and one it cannot tell, alone. */
function takeOverAbandoned(lockDir: string): void {
  let names: string[];
  try {
    names = readdirSync(lockDir);
  } catch {
    return; // Freed meanwhile.
  }
  // Empty: a holder stopped between its two steps of freeing it. rmdir fails if a lock moved in meanwhile.
  if (names.length === 0) return removeEmpty(lockDir);
  const [name] = names;
  if (names.length !== 1 || name === undefined || !(name === LEGACY_OWNER || HOLDER.test(name))) return;
  if (!abandoned(lockDir, name)) return;
  try {
    unlinkSync(join(lockDir, name));
  } catch {
    return; // Another process took it over first.
  }
  removeEmpty(lockDir);
}

function removeEmpty(lockDir: string): void {
  try {
    rmdirSync(lockDir);
  } catch {
    // ENOTEMPTY: a waiter has moved its lock in already; ENOENT: freed by another.
  }
}

/** A stage left by a process that was killed while it waited (its pid no longer runs): removed. */
function sweepStages(lockDir: string): void {
  const prefix = `${basename(lockDir)}.`;
  let names: string[];
  try {
    names = readdirSync(dirname(lockDir));
  } catch {
    return;
  }
  for (const name of names) {
    const pid = name.startsWith(prefix) ? /^(\d+)-[0-9a-f]+$/.exec(name.slice(prefix.length))?.[1] : undefined;
    if (pid !== undefined && !pidAlive(Number(pid))) rmSync(join(dirname(lockDir), name), { recursive: true, force: true });
  }
}

export function withLock<T>(lockDir: string, work: () => T): T {
  const token = `${process.pid}-${process.getBuiltinModule('node:crypto').randomBytes(6).toString('hex')}`;
  const holder = `holder-${token}`;
  const stage = `${lockDir}.${token}`;
  mkdirSync(stage, { mode: 0o700 });
  writeFileSync(join(stage, holder), '', { mode: 0o600 });
  const started = Date.now();
  for (let attempt = 0; ; attempt += 1) {
    try {
      renameSync(stage, lockDir);
      break;
    } catch (error) {
      const code = errorCode(error);
      // EEXIST/ENOTEMPTY: held; EPERM/EACCES: Windows does not rename onto a folder at all.
      if (code !== 'EEXIST' && code !== 'ENOTEMPTY' && code !== 'EPERM' && code !== 'EACCES') {
        rmSync(stage, { recursive: true, force: true });
        throw error;
      }
      takeOverAbandoned(lockDir);
      if (Date.now() - started > WAIT_MS) {
        rmSync(stage, { recursive: true, force: true });
        throw new Error(`${lockDir} is held by another Lookout process (waited ${WAIT_MS / 1000} s)`);
      }
      sleep(Math.min(50, 2 + attempt * 5));
    }
  }
  try {
    // Its age counts from now, not from when it was staged before the wait.
    const now = new Date();
    utimesSync(join(lockDir, holder), now, now);
    sweepStages(lockDir);
    return work();
  } finally {
    release(lockDir, holder);
  }
}

function release(lockDir: string, holder: string): void {
  try {
    unlinkSync(join(lockDir, holder));
  } catch {
    return; // Taken over (this holder was judged gone): the lock is another's now.
  }
  removeEmpty(lockDir);
}
