// Watches the providers' roots and Lookout's home with chokidar, coalescing bursts of file events
// into one set of changed paths per debounce window.
import { watch } from 'chokidar';
import type { FSWatcher } from 'chokidar';
import type { Stats } from 'node:fs';
import type { WatchTarget } from '../../providers/descriptor';

const DEBOUNCE_MS = 10;

/** Folders always; files only when a target's pattern names them (what its provider reads). */
function watched(path: string, stats: Stats | undefined, files: readonly RegExp[]): boolean {
  if (stats === undefined || stats.isDirectory()) return true;
  return files.some((pattern) => pattern.test(path));
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
      { ignoreInitial: true, depth, ignored: (path, stats) => !watched(path, stats, files), followSymlinks: false, ignorePermissionErrors: true },
    );
    this.watcher.on('all', (_event, path) => this.note(path));
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
