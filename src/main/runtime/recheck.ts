// Changed paths read once more a little later. chokidar reports one change per file per 50 ms and
// drops the ones in between (its change throttle): an append inside that window would otherwise
// wait for the next write or the rescan.

/** A changed file is read again this long after its change was handled. */
const RECHECK_MS = 120;

export class Recheck {
  /** Paths to read once more, with when (real elapsed time, not the evaluation clock). */
  private readonly due = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private disposed = false;

  constructor(private readonly read: (paths: ReadonlySet<string>) => void) {}

  /** Reads these paths once more after RECHECK_MS (`--now` or a test may hold the evaluation clock still). */
  schedule(paths: ReadonlySet<string>): void {
    const at = performance.now() + RECHECK_MS;
    for (const path of paths) this.due.set(path, at);
    if (this.timer === null) this.arm();
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  private arm(): void {
    let earliest = Infinity;
    for (const at of this.due.values()) earliest = Math.min(earliest, at);
    if (earliest === Infinity || this.disposed) return;
    this.timer = setTimeout(
      () => {
        this.timer = null;
        const now = performance.now();
        const ready = new Set<string>();
        for (const [path, at] of this.due) {
          if (at > now) continue;
          ready.add(path);
          this.due.delete(path);
        }
        if (ready.size > 0) this.read(ready);
        this.arm();
      },
      Math.max(0, earliest - performance.now()),
    );
  }
}
