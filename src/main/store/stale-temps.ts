// A write killed between its temp file and the rename (kill -9, a power cut) leaves
// `<file>.lookout-<pid>.tmp` beside the store. Lookout removes its own when it starts: only the
// temp names of the files it writes in LOOKOUT_HOME, and never one another process may be writing.
import { lstatSync, readdirSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { pidAlive } from '../../providers/system/process';
import { tempOwner } from '../../providers/system/private-files';

/** Younger than this, a temp file may be a write in flight (a slow fsync). */
const STALE_TEMP_MS = 10_000;
/** Older than this, its pid is another process that took the number: a write takes milliseconds. */
const ABANDONED_MS = 60 * 60_000;

/** Removes the stale temp files of `files` (Lookout's own, in one folder); returns how many. */
export function removeStaleTemps(files: readonly string[], now: number = Date.now()): number {
  const home = dirname(files[0] ?? '.');
  const own = new Set(files.filter((file) => dirname(file) === home).map((file) => basename(file)));
  let names: string[];
  try {
    names = readdirSync(home);
  } catch {
    return 0; // No home yet, or not ours to read: nothing to clean.
  }
  let removed = 0;
  for (const name of names) {
    const owner = tempOwner(name);
    if (owner === null || !own.has(owner.target)) continue;
    const path = join(home, name);
    try {
      const info = lstatSync(path);
      const age = now - info.mtimeMs;
      if (!info.isFile() || age < STALE_TEMP_MS) continue;
      // This process writes synchronously, so a temp file under its own pid is a predecessor's.
      if (age < ABANDONED_MS && owner.pid !== process.pid && pidAlive(owner.pid)) continue;
      rmSync(path, { force: true });
      removed += 1;
    } catch {
      // Gone meanwhile, or a folder Lookout cannot write (a read-only home): left as it is.
    }
  }
  return removed;
}
