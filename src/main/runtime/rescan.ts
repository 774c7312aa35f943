// The rescan, the safety net for missed events and crashed processes: a full re-read every
// interval, spaced further apart when one costs more (issue 51). A year of history makes a rescan
// stat every file: 20,000 of them took ~0.1–0.14 s of CPU, 0.3–0.5 % of a core at one every 30 s;
// paced, the net costs at most RESCAN_SHARE of a core, however long the history.

/** The most of one core the rescans may take, on average. */
export const RESCAN_SHARE = 0.001;
/** However costly a rescan, the next comes within this many intervals. */
const MAX_STRETCH = 10;

/** The wait before the next rescan, after one that used `cpuMs` of CPU: the interval, or longer so the net stays within its share. */
export function rescanDelay(cpuMs: number, intervalMs: number): number {
  return Math.round(Math.min(intervalMs * MAX_STRETCH, Math.max(intervalMs, cpuMs / RESCAN_SHARE)));
}

export class Rescan {
  private timer: NodeJS.Timeout | null = null;
  private disposed = false;

  /** The first rescan comes one interval from now. */
  constructor(
    private readonly run: () => Promise<void>,
    private readonly intervalMs: number,
  ) {
    this.arm(intervalMs);
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  private arm(delay: number): void {
    if (this.disposed) return;
    this.timer = setTimeout(() => void this.once(), delay);
  }

  private async once(): Promise<void> {
    this.timer = null;
    const before = process.cpuUsage();
    try {
      await this.run();
    } finally {
      const used = process.cpuUsage(before);
      this.arm(rescanDelay((used.user + used.system) / 1000, this.intervalMs));
    }
  }
}
