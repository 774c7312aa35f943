// Issue 24: a session dated ahead of this machine's clock (another machine's clock, a synced
// folder) holds its times where Lookout first read them, instead of moving with every beat.
import { describe, expect, it } from 'vitest';
import { FirstSeen } from '../../src/main/pipeline/first-seen';
import { at, min, rowOf, run, sec, session } from './build';

const ahead = () =>
  session({
    lastRecordAt: at(min(60)),
    signal: { kind: 'assistant-text', at: at(min(60)), stop: 'end' },
    turn: { startedAt: at(min(59)), endedAt: at(min(60)), durationMs: null },
  });

describe('a clock ahead of ours (issue 24)', () => {
  it('R2 held at first sight: the row does not move from beat to beat, and it goes idle-stale in its time', () => {
    const held = { ...ahead(), seenAt: at(0) };
    const first = rowOf(held, sec(2));
    const later = rowOf(held, sec(4));
    expect(first.lastActivityAt).toBe(new Date(at(0)).toISOString());
    expect(later).toEqual(first);
    expect(rowOf(held, min(16)).idleStale).toBe(true);
  });

  it('without a first sight the times follow now (what a one-shot sees at its instant)', () => {
    expect(rowOf(ahead(), sec(4)).lastActivityAt).toBe(new Date(at(sec(4))).toISOString());
  });

  it('the beat may skip: once the short timings have passed, nothing is due at the next beat (no snapshot every beat)', () => {
    const evaluation = run([{ ...ahead(), seenAt: at(0) }], sec(31));
    expect(evaluation.nextChangeAt === null || evaluation.nextChangeAt > at(sec(33))).toBe(true);
    // Without the hold, the clamped times follow now: due again at once.
    const following = run([ahead()], sec(31));
    expect(following.nextChangeAt).not.toBeNull();
    expect(following.nextChangeAt ?? 0).toBeLessThanOrEqual(at(sec(33)));
  });

  it('the pipeline marks a future-dated session once and keeps the mark while its evidence stays the same', () => {
    const seen = new FirstSeen();
    const raw = ahead();
    const [once] = seen.mark([raw], at(0));
    const [again] = seen.mark([raw], at(sec(2)));
    expect(once?.seenAt).toBe(at(0));
    expect(again).toBe(once);
    const [changed] = seen.mark([{ ...raw, lastRecordAt: at(min(61)) }], at(sec(4)));
    expect(changed?.seenAt).toBe(at(sec(4)));
    const present = session({ lastRecordAt: at(0) });
    expect(seen.mark([present], at(sec(6)))[0]).toBe(present);
  });
});
