// The database a variable of the agent's own names (opencode's OPENCODE_DB, Kilo's KILO_DB, as
// 1.18.33 resolves it): `:memory:` is none on disk, an absolute path is that file, any other name
// is a file in the data folder. The agent then writes only there.
import { basename, dirname, isAbsolute, join } from 'node:path';
import type { WatchTarget } from '../descriptor';

export function namedDatabase(root: string, value: string | undefined): string | null {
  const name = value?.trim() ?? '';
  if (name === '' || name === ':memory:') return null;
  return isAbsolute(name) ? name : join(root, name);
}

/** Its folder, watched for that file and its -wal only. */
export function namedDatabaseWatch(path: string | null): WatchTarget[] {
  if (path === null) return [];
  const escaped = basename(path).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return [{ path: dirname(path), depth: 0, files: new RegExp(`(^|[/\\\\])${escaped}(-wal)?$`) }];
}
