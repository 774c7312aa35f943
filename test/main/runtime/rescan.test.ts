// Issue 51: the rescan (the safety net for missed events) keeps to its share of a core however
// long the history: one that cost more spaces the next further apart, within ten intervals.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RESCAN_SHARE, Rescan, rescanDelay } from '../../../src/main/runtime/rescan';

afterEach(() => {
  vi.useRealTimers();
});

describe('the paced rescan (issue 51)', () => {
  it('waits the interval after a cheap rescan, long enough to keep within its share after a costly one, and never more than ten intervals', () => {
    expect(rescanDelay(10, 30_000)).toBe(30_000);
    // 20,000 files statted: ~140 ms of CPU, so 140 s to the next (0.1 % of a core).
    expect(rescanDelay(140, 30_000)).toBe(140_000);
    expect(140 / rescanDelay(140, 30_000)).toBeCloseTo(RESCAN_SHARE);
    expect(rescanDelay(10_000, 30_000)).toBe(300_000);
  });

  it('measures each rescan and arms the next from what it cost; disposed, it runs no more', async () => {
    vi.useFakeTimers();
    let runs = 0;
    const rescan = new Rescan(async () => {
      runs += 1;
      // Real CPU, well over the share of a 10 ms interval: the next is ten intervals on.
      const until = process.cpuUsage().user + 5_000;
      while (process.cpuUsage().user < until) Math.sqrt(runs);
    }, 10);
    await vi.advanceTimersByTimeAsync(9);
    expect(runs).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toBe(1);
    await vi.advanceTimersByTimeAsync(99);
    expect(runs).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toBe(2);
    rescan.dispose();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(runs).toBe(2);
  });
});
