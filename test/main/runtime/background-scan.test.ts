// The background pass's pacing (issues 14, 27): a bounded step, then a pause of a few times the
// step's own time, so a pass over the page cache ends in seconds and a slow disk is given room.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Pipeline } from '../../../src/main/pipeline/pipeline';
import { BackgroundScan, backgroundPassOn, budgetAfter, pauseAfter } from '../../../src/main/runtime/background-scan';

afterEach(() => vi.useRealTimers());

/** A pipeline whose background work is `steps` steps, the ones in `learning` finding a title. */
function fakePipeline(steps: number, learning: ReadonlySet<number>): { pipeline: Pipeline; taken: number[] } {
  const taken: number[] = [];
  const pipeline = {
    backgroundStep(budget: number) {
      if (taken.length >= steps) return { worked: false, changed: false };
      taken.push(budget);
      return { worked: true, changed: learning.has(taken.length) };
    },
  } as unknown as Pipeline;
  return { pipeline, taken };
}

describe('the background pass', () => {
  it('pauses a few times as long as a step took, within bounds', () => {
    expect(pauseAfter(0)).toBe(5);
    expect(pauseAfter(1.2)).toBe(5);
    expect(pauseAfter(10)).toBe(40);
    expect(pauseAfter(1000)).toBe(250);
  });

  it('issue 27: a step grows (at most twofold) to 8 MB while it stays within ~3 ms, and falls back to 1 MB after a slow one', () => {
    const MB = 1024 * 1024;
    expect(budgetAfter(MB, 0.3)).toBe(2 * MB);
    expect(budgetAfter(4 * MB, 1)).toBe(8 * MB);
    expect(budgetAfter(8 * MB, 0.5)).toBe(8 * MB);
    expect(budgetAfter(8 * MB, 6)).toBe(4 * MB);
    expect(budgetAfter(8 * MB, 80)).toBe(MB);
    expect(budgetAfter(MB, 40)).toBe(MB);
    expect(budgetAfter(MB, 0)).toBe(2 * MB);
  });

  it('steps until no work is left, says it is done once, and brings what it learned in once a second at most', async () => {
    vi.useFakeTimers();
    const { pipeline, taken } = fakePipeline(50, new Set([3, 4, 5]));
    let applied = 0;
    let done = 0;
    const scan = new BackgroundScan(
      pipeline,
      () => (applied += 1),
      () => (done += 1),
    );
    scan.kick();
    await vi.runAllTimersAsync();
    expect(taken).toHaveLength(50);
    // The first step reads 1 MB; quick steps (fake timers take no time) grow it twofold to 8 MB.
    expect(taken.slice(0, 5)).toEqual([1, 2, 4, 8, 8].map((mb) => mb * 1024 * 1024));
    expect(done).toBe(1);
    expect(applied).toBe(1);
    // A later pass (the rescan finds new files) starts at 1 MB again.
    taken.length = 45;
    scan.kick();
    await vi.runAllTimersAsync();
    expect(taken.slice(45, 47)).toEqual([1, 2].map((mb) => mb * 1024 * 1024));
    expect(done).toBe(2);
    scan.dispose();
  });

  it('a disposed pass takes no further step', async () => {
    vi.useFakeTimers();
    const { pipeline, taken } = fakePipeline(50, new Set());
    const scan = new BackgroundScan(pipeline, () => undefined);
    scan.kick();
    await vi.advanceTimersByTimeAsync(20);
    const before = taken.length;
    expect(before).toBeGreaterThan(0);
    scan.dispose();
    await vi.runAllTimersAsync();
    expect(taken).toHaveLength(before);
  });

  it("LOOKOUT_BACKGROUND_PASS=off (the bench's control): no step is taken, and the pass is over at once each time it is started", async () => {
    expect(backgroundPassOn({})).toBe(true);
    expect(backgroundPassOn({ LOOKOUT_BACKGROUND_PASS: 'on' })).toBe(true);
    expect(backgroundPassOn({ LOOKOUT_BACKGROUND_PASS: 'off' })).toBe(false);
    vi.useFakeTimers();
    const { pipeline, taken } = fakePipeline(5, new Set([1]));
    let done = 0;
    const scan = new BackgroundScan(
      pipeline,
      () => undefined,
      () => (done += 1),
      backgroundPassOn({ LOOKOUT_BACKGROUND_PASS: 'off' }),
    );
    scan.kick();
    // Over before any timer: the index is written as a pass with nothing to read writes it.
    expect(done).toBe(1);
    await vi.runAllTimersAsync();
    scan.kick();
    await vi.runAllTimersAsync();
    expect(taken).toEqual([]);
    expect(done).toBe(2);
  });
});
