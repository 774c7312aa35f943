// A full collection once the runtime has been quiet for a while after emitting: V8 otherwise keeps
// a burst's garbage (each snapshot of 2,000 rows is about 1 MB) resident for minutes
// (docs/performance.md, "Resident memory").
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** How long without a new snapshot before collecting. */
export const SETTLE_MS = 3_000;
/** The longest a collection waits while snapshots keep coming. */
export const SETTLE_MAX_WAIT_MS = 10_000;

/** V8's full collector, reached without a start-up flag; null where the engine refuses it. */
export function fullCollector(): (() => void) | null {
  try {
    setFlagsFromString('--expose-gc');
    const gc: unknown = runInNewContext('gc');
    return typeof gc === 'function' ? () => void Reflect.apply(gc, undefined, []) : null;
  } catch {
    return null;
  }
}

/** Collects once a busy stretch goes quiet, and at least every `maxWaitMs` while it does not. */
export class HeapSettle {
  private timer: NodeJS.Timeout | null = null;
  private pendingSince = 0;

  constructor(
    private readonly collect: (() => void) | null,
    private readonly quietMs: number = SETTLE_MS,
    private readonly maxWaitMs: number = SETTLE_MAX_WAIT_MS,
  ) {}

  touch(): void {
    if (this.collect === null) return;
    const now = Date.now();
    if (this.timer !== null) {
      // A session that changes every few seconds would otherwise postpone the collection forever.
      if (now - this.pendingSince >= this.maxWaitMs) return;
      clearTimeout(this.timer);
    } else {
      this.pendingSince = now;
    }
    const collect = this.collect;
    const delay = Math.min(this.quietMs, this.pendingSince + this.maxWaitMs - now);
    this.timer = setTimeout(() => {
      this.timer = null;
      collect();
    }, Math.max(0, delay));
    // A pending collection never keeps a finished command alive.
    this.timer.unref();
  }

  dispose(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }
}
