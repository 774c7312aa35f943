// One folder's entries for discovery. Synchronous: a few dozen listings cost less than the
// thread-pool round trips of promise I/O, and discovery runs before anything can overlap it.
import type { Dirent } from 'node:fs';
import { readdirSync } from 'node:fs';
import type { Problems } from './problems';
import { errorCode } from './problems';

/** The folder's entries; a missing folder is empty, an unreadable one is reported once. */
export function listFolder(folder: string, problems: Problems): Dirent[] {
  try {
    return readdirSync(folder, { withFileTypes: true });
  } catch (error) {
    const code = errorCode(error);
    if (code !== 'ENOENT' && code !== 'ENOTDIR') problems.add({ kind: 'unreadable', path: folder, detail: String(code) });
    return [];
  }
}
