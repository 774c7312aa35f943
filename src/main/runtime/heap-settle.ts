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

/** What the heap holds (`used`) and what it has taken from the system (`total`), in bytes. */
export interface HeapSize {
  used: number;
  total: number;
}

function heapSize(): HeapSize {
  const stats = getHeapStatistics();
  return { used: stats.used_heap_size, total: stats.total_heap_size };
}

/**
 * What the settle does at its time (`late`: the second look, well after the burst), and whether
 * it asks for that second look: true when the heap still holds much less than it has taken.
 */
export type SettlePolicy = (late: boolean) => boolean;

/**
 * `collect`, skipped while the heap has grown by less than `growth` since the last one, in what it
 * holds or in what it has taken: rows that change every few seconds (finish claims expiring) leave
 * little behind, and a full collection of the whole heap every ten seconds was most of the
 * runtime's CPU then. A first pass over 2,000 sessions leaves ~20 MB more held but ~45 MB more
 * taken (the young generation grown to its most). V8 gives that back only in a collection made
 * once allocation has been slow for a few seconds: 3 s after the burst it keeps it, 12 s after it
 * returns it (measured, docs/performance.md run AK), so such a collection asks for a late one.
 */
export function whenGrown(collect: (() => void) | null, size: () => HeapSize = heapSize, growth = SETTLE_GROWTH_BYTES): SettlePolicy | null {
  if (collect === null) return null;
  let after = size();
  return (late) => {
    const now = size();
    if (!late && now.used - after.used < growth && now.total - after.total < growth) return false;
    collect();
    after = size();
    return !late && after.total - after.used >= growth;
  };
}

/** How long after a collection that left the heap's taken memory unreturned the late one comes. */
const LATE_MS = 12_000;

/**
 * Collects once a busy stretch goes quiet, and at least every `maxWaitMs` while it does not; a
 * collection that asks for it is followed by one late collection, once the runtime has been quiet
 * for `lateMs` (a burst puts it off, never away).
 */
export class HeapSettle {
  private timer: NodeJS.Timeout | null = null;
  private pendingSince = 0;
  /** The pending timer is the late collection's, not a burst's. */
  private late = false;
  /** A late collection was asked for and has not come yet: a burst that put it off owes it again. */
  private owed = false;

  constructor(
    private readonly policy: SettlePolicy | null,
    private readonly quietMs: number = SETTLE_MS,
    private readonly maxWaitMs: number = SETTLE_MAX_WAIT_MS,
    private readonly lateMs: number = LATE_MS,
  ) {}

  touch(): void {
    if (this.policy === null) return;
    const now = Date.now();
    if (this.timer !== null && !this.late) {
      // A session that changes every few seconds would otherwise postpone the collection forever.
      if (now - this.pendingSince >= this.maxWaitMs) return;
    } else {
      this.pendingSince = now;
    }
    // A new burst: its own collection comes first, and a late one still owed after it.
    this.stop();
    const delay = Math.min(this.quietMs, this.pendingSince + this.maxWaitMs - now);
    this.arm(Math.max(0, delay), false);
  }

  dispose(): void {
    this.stop();
  }

  private stop(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.late = false;
  }

  private arm(delay: number, late: boolean): void {
    const policy = this.policy;
    if (policy === null) return;
    this.late = late;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.late = false;
      const asks = policy(late);
      this.owed = asks || (this.owed && !late);
      if (this.owed) this.arm(this.lateMs, true);
    }, delay);
    // A pending collection never keeps a finished command alive.
    this.timer.unref();
  }
}
