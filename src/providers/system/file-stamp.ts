// One stamp for "has this file changed since I last read it", the same for every reader. It
// changes when the file is replaced (device, inode), grows or shrinks (size), is written (mtime),
// or is touched in any way, even by a tool that sets its time back (ctime, which no one can set).
// Times are Node's milliseconds with their fraction (a fraction of a microsecond at today's dates):
// finer than a file system's clock. What no stamp tells: two rewrites of the same size in place
// within one tick of that clock (Linux's coarse clock: a few milliseconds).
import type { Stats } from 'node:fs';
import { lstatSync, statSync } from 'node:fs';

/** The fields of a stat the stamp reads (a sync or an async stat gives them). */
export type StampedStats = Pick<Stats, 'dev' | 'ino' | 'size' | 'mtimeMs' | 'ctimeMs'>;

/** The stamp of what a stat said. */
export function stampOf(info: StampedStats): string {
  return `${info.dev}:${info.ino}:${info.size}:${info.mtimeMs}:${info.ctimeMs}`;
}

/** Whether a link is stamped as the file it names (stat) or as itself (lstat). */
export type LinkRule = 'follow' | 'own';

/** The file's stat by that rule; throws as stat does. */
export function statBy(path: string, links: LinkRule): Stats {
  return links === 'follow' ? statSync(path) : lstatSync(path);
}

/** The file's stamp, or null when it cannot be seen (not there, or no right to look). */
export function fileStamp(path: string, links: LinkRule = 'follow'): string | null {
  try {
    return stampOf(statBy(path, links));
  } catch {
    return null;
  }
}
