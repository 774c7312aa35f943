// Issue 47 item 4: a Lookout home (and its bin/, run/, spool/) that another user owns, or that
// others can write, is refused — they could replace bin/lookout-hook and run as you. One of yours
// that others can only read is made private (0700), as Lookout makes every folder of its own.
import { chmodSync, lstatSync, type Stats } from 'node:fs';
import { join } from 'node:path';

/** The folders inside the home whose contents are run or trusted. */
const PRIVATE_SUBFOLDERS = ['bin', 'run', 'spool'] as const;

type FolderStat = Pick<Stats, 'uid' | 'mode'> & { isDirectory(): boolean; isSymbolicLink(): boolean };

/** Why the folder at `path` is not private to `uid`, or null when it is (pure: stat and uid injected). */
export function privateDirProblem(path: string, stat: FolderStat, uid: number): string | null {
  if (stat.isSymbolicLink()) return `refusing LOOKOUT_HOME folder ${path}: a symbolic link, not a folder of your own`;
  if (!stat.isDirectory()) return `refusing LOOKOUT_HOME folder ${path}: not a folder`;
  if (stat.uid !== uid) return `refusing LOOKOUT_HOME folder ${path}: owned by uid ${stat.uid}, not you (${uid})`;
  // Refused, not tightened: a folder others could write may already hold their programs.
  if ((stat.mode & 0o022) !== 0)
    return `refusing LOOKOUT_HOME folder ${path}: writable by others (mode ${(stat.mode & 0o777).toString(8).padStart(4, '0')}), so it may hold their programs; check it, then chmod 700 it`;
  return null;
}

/** The first problem with the home or its bin/, run/, spool/ as they exist now; null when all are private (or not made yet, or on Windows). */
export function lookoutHomeProblem(home: string, uid: number | undefined = process.getuid?.()): string | null {
  // Windows has no uid and no mode bits: nothing to compare.
  if (uid === undefined) return null;
  for (const path of [home, ...PRIVATE_SUBFOLDERS.map((name) => join(home, name))]) {
    let stat: Stats;
    try {
      stat = lstatSync(path);
    } catch {
      continue; // Not made yet: Lookout makes it 0700 itself.
    }
    const problem = privateDirProblem(path, stat, uid);
    if (problem !== null) return problem;
    // Yours and written by no one else, only readable by others (an older install's 0755): made private.
    if ((stat.mode & 0o077) !== 0) chmodSync(path, 0o700);
  }
  return null;
}
