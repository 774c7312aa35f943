// A full collection once the runtime has been quiet for a while after emitting: V8 otherwise keeps
// a burst's garbage (each snapshot of 2,000 rows is about 1 MB) resident for minutes
// (docs/performance.md, "Resident memory").
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** How long without a new snapshot before collecting. */
const SETTLE_MS = 3_000;
/** The longest a collection waits while snapshots keep coming. */
const SETTLE_MAX_WAIT_MS = 10_000;

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

/**
 * The flags that leave collecting after a burst to the heap settle alone, for the V8 versions
 * known here (none for another: an unknown flag would be printed on stderr). Without incremental
 * marking, V8's memory reducer starts no collections of its own once the runtime goes quiet.
 */
export function quietHeapFlags(v8Version: string): readonly string[] {
  const major = Number(v8Version.split('.')[0]);
  return major >= 11 && major <= 14 ? ['--no-incremental-marking'] : [];
}

/**
 * The reducer's collections, ~45 s into a quiet minute, followed the heap settle's own and freed
 * nothing more, for ~0.3 s of CPU on two cores (issue 27, docs/performance.md).
 */
export function quietHeap(): void {
  for (const flag of quietHeapFlags(process.versions.v8)) setFlagsFromString(flag);
}

/** Heap growth since the last collection under which another is not worth its pause (issue 27). */
const SETTLE_GROWTH_BYTES = 24 * 1024 * 1024;

/**
 * `collect`, skipped while the heap has grown by less than `growth` since the last one: rows that
 * change every few seconds (finish claims expiring) leave little behind, and a full collection of
 * the whole heap every ten seconds was most of the runtime's CPU then.
 */
export function whenGrown(
  collect: (() => void) | null,
  usedHeap: () => number = () => getHeapStatistics().used_heap_size,
  growth = SETTLE_GROWTH_BYTES,
): (() => void) | null {
  if (collect === null) return null;
  let after = usedHeap();
  return () => {
    if (usedHeap() - after < growth) return;
    collect();
    after = usedHeap();
  };
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
    this.timer = setTimeout(
      () => {
        this.timer = null;
        collect();
      },
      Math.max(0, delay),
    );
    // A pending collection never keeps a finished command alive.
    this.timer.unref();
  }

  dispose(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }
}
