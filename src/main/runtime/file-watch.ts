// Watches the providers' roots and Lookout's home with chokidar, coalescing bursts of file events
// into one set of changed paths per debounce window. Folders only (issue 51): a folder's watch
// reports what happens to the files in it (chokidar's raw events name them), so a year of history
// (20,000 files) costs a watch per folder, not one per file — 40 MB and as many inotify watches
// as files, past the 8,192 some systems allow.
import { watch } from 'chokidar';
import type { FSWatcher } from 'chokidar';
import type { Stats } from 'node:fs';
import { join } from 'node:path';
import type { WatchTarget } from '../../providers/descriptor';

const DEBOUNCE_MS = 10;

/** Folders only: a file is seen through its folder's watch. */
function watched(stats: Stats | undefined): boolean {
  return stats === undefined || stats.isDirectory();
}

/** The file a folder's raw event names, when a target's pattern names it (what its provider reads); else null. */
export function rawEventPath(name: unknown, details: unknown, files: readonly RegExp[]): string | null {
  const folder = (details as { watchedPath?: unknown } | null)?.watchedPath;
  if (typeof folder !== 'string' || typeof name !== 'string' || name === '') return null;
  const path = join(folder, name);
  return files.some((pattern) => pattern.test(path)) ? path : null;
}

export class ChangeWatcher {
  private readonly watcher: FSWatcher;
  private pending = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private disposed = false;

  constructor(
    targets: readonly WatchTarget[],
    private readonly onChange: (paths: ReadonlySet<string>) => void,
    private readonly onError: (error: Error) => void,
  ) {
    // One watcher per depth is not needed: the deepest target sets the bound, `ignored` trims files.
    const depth = Math.max(...targets.map((target) => target.depth));
    const files = targets.map((target) => target.files);
    this.watcher = watch(
      targets.map((target) => target.path),
      { ignoreInitial: true, depth, ignored: (_path, stats) => !watched(stats), followSymlinks: false, ignorePermissionErrors: true },
    );
    // Folders added or removed; then each file a folder's watch reports written, made, renamed or removed.
    this.watcher.on('all', (_event, path) => this.note(path));
    this.watcher.on('raw', (_event, name, details) => {
      const path = rawEventPath(name, details, files);
      if (path !== null) this.note(path);
    });
    this.watcher.on('error', (error) => this.onError(error instanceof Error ? error : new Error(String(error))));
  }

  /** Resolves once the initial scan is done and events will be reported. */
  ready(): Promise<void> {
    return new Promise((resolve) => this.watcher.once('ready', () => resolve()));
  }

  private note(path: string): void {
    if (this.disposed) return;
    this.pending.add(path);
    if (this.timer !== null) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      const paths = this.pending;
      this.pending = new Set();
      this.onChange(paths);
    }, DEBOUNCE_MS);
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    await this.watcher.close();
  }
}
