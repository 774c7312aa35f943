// The background pass's pacing (issues 14, 27): a bounded step, then a pause of a few times the
// step's own time, so a pass over the page cache ends in seconds and a slow disk is given room.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Pipeline } from '../../src/main/pipeline/pipeline';
import { BackgroundScan, pauseAfter } from '../../src/main/runtime/background-scan';

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

  it('steps until no work is left, says it is done once, and brings what it learned in once a second at most', async () => {
    vi.useFakeTimers();
    const { pipeline, taken } = fakePipeline(50, new Set([3, 4, 5]));
    let applied = 0;
    let done = 0;
    const scan = new BackgroundScan(pipeline, () => (applied += 1), () => (done += 1));
    scan.kick();
    await vi.runAllTimersAsync();
    expect(taken).toHaveLength(50);
    expect(taken.every((budget) => budget === 1024 * 1024)).toBe(true);
    expect(done).toBe(1);
    expect(applied).toBe(1);
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
});
