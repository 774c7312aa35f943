// Background reading (issue 14), throttled: a bounded step, then a pause, while there is work. It
// never delays a snapshot (each step is short and file events come first), and what it learns
// reaches the rows at most once a second (a scan of many files is not an evaluation per file).
// The pause is a multiple of the step's own time (issue 27): a step from the page cache takes a
// millisecond or two, so the pass ends in seconds at about a fifth of a core; a step that waited
// on a slow disk waits as much again, times PACE, before the next. The step's size follows its
// time: from the page cache it grows to 8 MB (fewer steps, each a file opened and a cold start of
// the caches, cost a read-heavy pass ~20 % of its CPU at 1 MB); from a slow disk it stays at 1 MB.
import type { Pipeline } from '../pipeline/pipeline';

/** A step reads this much at first and after a slow step, up to STEP_MAX_BYTES while steps stay short (STEP_MS). */
const STEP_BYTES = 1024 * 1024;
const STEP_MAX_BYTES = 8 * 1024 * 1024;
const STEP_MS = 3;
/** Then a pause of PACE times the step's time, within these bounds (well under half a core). */
const PACE = 4;
const PAUSE_MIN_MS = 5;
const PAUSE_MAX_MS = 250;
const APPLY_MS = 1000;

/**
 * Whether the runtime reads the middles at all: LOOKOUT_BACKGROUND_PASS=off starts everything
 * else the same (a diagnostic knob: the bench's control, so a first pass is weighed against the
 * same cold start without it).
 */
export function backgroundPassOn(env: NodeJS.ProcessEnv): boolean {
  return env.LOOKOUT_BACKGROUND_PASS !== 'off';
}

/** The pause after a step that took `stepMs`. */
export function pauseAfter(stepMs: number): number {
  return Math.min(PAUSE_MAX_MS, Math.max(PAUSE_MIN_MS, Math.ceil(stepMs * PACE)));
}

/** The next step's budget after a step of `budget` bytes took `stepMs`: what fits in STEP_MS, within bounds. */
export function budgetAfter(budget: number, stepMs: number): number {
  const fits = stepMs <= 0 ? STEP_MAX_BYTES : Math.floor((budget * STEP_MS) / stepMs);
  // Grows at most twofold a step: one quick step over a small file says little of the next file's disk.
  return Math.min(STEP_MAX_BYTES, 2 * budget, Math.max(STEP_BYTES, fits));
}

export class BackgroundScan {
  private stepTimer: NodeJS.Timeout | null = null;
  private applyTimer: NodeJS.Timeout | null = null;
  private disposed = false;
  private budget = STEP_BYTES;

  constructor(
    private readonly pipeline: Pipeline,
    /** Brings what was learned into the rows (a sync that reads nothing new). */
    private readonly apply: () => void,
    /** The pass is over (nothing left to read): what it learned is kept now (the index's flush). */
    private readonly done: () => void = () => undefined,
    private readonly on = true,
  ) {}

  /** Starts stepping, unless it is already. */
  kick(pause = PAUSE_MIN_MS): void {
    if (this.stepTimer !== null || this.disposed) return;
    // Switched off: over at once, as a pass with nothing to read is (the index is kept then too).
    if (!this.on) return this.done();
    this.stepTimer = setTimeout(() => {
      this.stepTimer = null;
      if (this.disposed) return;
      const started = performance.now();
      const step = this.pipeline.backgroundStep(this.budget);
      const took = performance.now() - started;
      if (step.changed) this.learned();
      this.budget = budgetAfter(this.budget, took);
      if (step.worked) this.kick(pauseAfter(took));
      else {
        // A later pass (new files) may be on another disk: it starts small again.
        this.budget = STEP_BYTES;
        this.done();
      }
    }, pause);
  }

  private learned(): void {
    if (this.applyTimer !== null || this.disposed) return;
    this.applyTimer = setTimeout(() => {
      this.applyTimer = null;
      if (!this.disposed) this.apply();
    }, APPLY_MS);
  }

  dispose(): void {
    this.disposed = true;
    if (this.stepTimer !== null) clearTimeout(this.stepTimer);
    if (this.applyTimer !== null) clearTimeout(this.applyTimer);
    this.stepTimer = null;
    this.applyTimer = null;
  }
}
