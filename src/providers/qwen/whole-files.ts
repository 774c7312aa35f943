// Small JSON files Qwen Code rewrites whole (runtime.json, a subagent's meta file): each read once
// per change of its stamp (inode, size, time), through the safe reader, and forgotten once gone.
import { statSync } from 'node:fs';
import type { Problems } from '../problems';
import { errorCode } from '../problems';
import { READ_CAPS, readRegularText } from '../system/safe-read';

export class WholeFiles<T> {
  private readonly known = new Map<string, { stamp: string; value: T | null }>();

  constructor(private readonly parse: (text: string) => T | null) {}

  /** The file's fields, or null when it is not there (usual: written later, or removed) or not readable (said once). */
  read(path: string | null, problems: Problems): T | null {
    if (path === null) return null;
    try {
      const info = statSync(path);
      const stamp = `${info.ino}:${info.size}:${info.mtimeMs}`;
      const cached = this.known.get(path);
      if (cached?.stamp === stamp) return cached.value;
      const value = this.parse(readRegularText(path, READ_CAPS.smallJson));
      this.known.set(path, { stamp, value });
      return value;
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') problems.add({ kind: 'unreadable', path, detail: errorCode(error) ?? String(error) });
      return null;
    }
  }

  /** Forgets the files no longer there. */
  keep(paths: ReadonlySet<string>): void {
    for (const path of this.known.keys()) if (!paths.has(path)) this.known.delete(path);
  }
}
