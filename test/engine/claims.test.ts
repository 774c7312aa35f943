// §5 claims, R29–R33: what raises and clears each claim, triage order, count and next.
import { describe, expect, it } from 'vitest';
import type { SessionEvidence, WorkingTree } from '../../src/engine';
import { DEFAULT_TIMINGS } from '../../src/engine';
import { KEY, at, child, min, rowOf, run, sec, session, tool, toolCall, T0 } from './build';

const tree = (fingerprint: string, changedFiles: number): WorkingTree => ({ kind: 'read', at: at(min(5)), fingerprint, changedFiles });
/** A turn that started at T0 and finished `length` later. */
const finishedAfter = (length: number, workingTree: WorkingTree = { kind: 'not-a-repo' }): SessionEvidence =>
  session({
    signal: { kind: 'turn-end', at: at(length), failed: false, detail: null },
    turn: { startedAt: T0, endedAt: at(length), durationMs: null },
    workingTree,
  });

describe('claims', () => {
  it('§5 needs-you stands until answered; a visit does not clear it', () => {
    const asking = session({ signal: toolCall(0, [tool('AskUserQuestion', 'question')]) });
    const row = rowOf(asking, min(20), { facts: { visits: { [KEY]: { at: at(min(10)), fingerprint: null } } } });
    expect(row.claim).toMatchObject({ kind: 'needs-you', ambiguous: false, expiresAt: null });
  });

  it.each([
    ['just before claimExpiry', DEFAULT_TIMINGS.claimExpiry - 1, true],
    ['at claimExpiry', DEFAULT_TIMINGS.claimExpiry, false],
  ])('§5 an attention call claim %s', (_label, now, stands) => {
    const idle = finishedAfter(sec(1));
    const row = rowOf(idle, now, { facts: { attentionCalls: { [KEY]: { at: T0, message: 'look at me' } } } });
    expect(row.claim?.kind === 'needs-you').toBe(stands);
    if (stands) expect(row.claim).toMatchObject({ detail: 'look at me', expiresAt: new Date(T0 + DEFAULT_TIMINGS.claimExpiry).toISOString() });
  });

  it('§5 an attention call clears on a visit', () => {
    const facts = { attentionCalls: { [KEY]: { at: at(sec(10)), message: null } }, visits: { [KEY]: { at: at(sec(20)), fingerprint: null } } };
    expect(rowOf(finishedAfter(sec(1)), sec(30), { facts }).claim).toBeNull();
  });

  it('§5 a program notification claim clears when activity resumes', () => {
    const notice = { source: 'claude.hook', at: at(sec(10)), message: 'Claude needs your permission' };
    const quiet = { ...finishedAfter(sec(1)), notices: [notice] };
    expect(rowOf(quiet, sec(20)).claim).toMatchObject({ kind: 'needs-you', detail: 'Claude needs your permission' });
    const resumed = { ...session({ signal: { kind: 'prompt', at: at(sec(15)) } }), notices: [notice] };
    expect(rowOf(resumed, sec(20)).claim).toBeNull();
  });

  it('§5 failed stands until a visit', () => {
    const failed = session({ signal: { kind: 'api-error', at: at(sec(5)), detail: 'overloaded' } });
    expect(rowOf(failed, min(1)).claim).toMatchObject({ kind: 'failed', detail: 'overloaded' });
    expect(rowOf(failed, min(1), { facts: { visits: { [KEY]: { at: at(sec(30)), fingerprint: null } } } }).claim).toBeNull();
  });

  it('§5 failed clears with a new turn', () => {
    expect(rowOf(session({ signal: { kind: 'prompt', at: at(sec(20)) } }), sec(21)).claim).toBeNull();
  });

  it.each([
    ['just below longJobFloor', DEFAULT_TIMINGS.longJobFloor - 1, null],
    ['at longJobFloor', DEFAULT_TIMINGS.longJobFloor, 'ready-for-review'],
  ])('§5 ready-for-review for a turn %s', (_label, length, kind) => {
    const row = rowOf(finishedAfter(length, tree('abc', 3)), length + sec(1));
    expect(row.claim?.kind ?? null).toBe(kind);
  });

  it('§5 ready-for-review says how long and how many files', () => {
    const row = rowOf(finishedAfter(min(4) + sec(12), tree('abc', 3)), min(5));
    expect(row.claim?.detail).toBe('finished in 4m 12s, 3 files changed');
  });

  it('§5 ready-for-review needs changes that differ from the last visit; otherwise a finish tick', () => {
    const seen = { visits: { [KEY]: { at: at(-min(1)), fingerprint: 'abc' } } };
    expect(rowOf(finishedAfter(min(1), tree('abc', 3)), min(1) + sec(1), { facts: seen }).claim?.kind).toBe('finished');
    expect(rowOf(finishedAfter(min(1), tree('def', 3)), min(1) + sec(1), { facts: seen }).claim?.kind).toBe('ready-for-review');
  });

  it('§5 ready-for-review clears on a visit and is never awarded on screen', () => {
    const evidence = finishedAfter(min(1), tree('abc', 2));
    expect(rowOf(evidence, min(2), { facts: { visits: { [KEY]: { at: at(min(1) + sec(30)), fingerprint: 'abc' } } } }).claim).toBeNull();
    expect(rowOf(evidence, min(2), { onScreen: KEY }).claim).toBeNull();
  });

  it.each([
    ['just before finishedTick', DEFAULT_TIMINGS.finishedTick - 1, 'finished'],
    ['at finishedTick', DEFAULT_TIMINGS.finishedTick, null],
  ])('§5 a clean finish shows a tick %s', (_label, after, kind) => {
    const length = min(1);
    expect(rowOf(finishedAfter(length, tree('abc', 0)), length + after).claim?.kind ?? null).toBe(kind);
  });

  it('§5 an interrupted turn gets no finish claim', () => {
    const row = rowOf(
      session({ signal: { kind: 'interrupted', at: at(min(1)) }, turn: { startedAt: T0, endedAt: at(min(1)), durationMs: null } }),
      min(1) + sec(1),
    );
    expect(row.claim).toBeNull();
  });

  it('R29 while children still run the job is not finished; it finishes when the fold turns idle', () => {
    const working = child({ signal: { kind: 'progress', at: at(min(2)) } });
    const lead = finishedAfter(sec(30), tree('abc', 0));
    expect(rowOf({ ...lead, children: [working] }, min(2) + sec(1)).claim).toBeNull();
    const done = child({ signal: { kind: 'turn-end', at: at(min(3)), failed: false, detail: null } });
    const row = rowOf({ ...lead, children: [done] }, min(3) + sec(1));
    expect(row.claim).toMatchObject({ kind: 'finished', since: new Date(at(min(3))).toISOString(), detail: 'finished in 3m' });
  });

  it('R29 the provider duration counts when it is longer than the records show', () => {
    const row = rowOf(
      session({
        signal: { kind: 'turn-end', at: at(sec(5)), failed: false, detail: null },
        turn: { startedAt: at(sec(4)), endedAt: at(sec(5)), durationMs: sec(20) },
      }),
      sec(6),
    );
    expect(row.claim?.kind).toBe('finished');
  });

  it('R30 a visit is a user fact that clears visit-cleared claims', () => {
    const failed = session({ signal: { kind: 'api-error', at: T0, detail: null } });
    const before = rowOf(failed, sec(10), { facts: { visits: { [KEY]: { at: at(-sec(1)), fingerprint: null } } } });
    expect(before.claim?.kind).toBe('failed');
  });
});

describe('triage', () => {
  const id = (n: number): string => `0000000${n}-0000-4000-8000-000000000000`;
  const stories: [string, SessionEvidence][] = [
    ['idle', session({ id: id(9), signal: { kind: 'turn-end', at: at(sec(50)), failed: false, detail: null }, turn: null })],
    ['working', session({ id: id(7), signal: { kind: 'prompt', at: at(sec(50)) } })],
    ['ambiguous', session({ id: id(2), signal: toolCall(0, [tool('Bash')]) })],
    ['asking', session({ id: id(1), signal: toolCall(sec(30), [tool('AskUserQuestion', 'question')]) })],
    ['failed', session({ id: id(3), signal: { kind: 'api-error', at: at(sec(40)), detail: null } })],
    ['stale', session({ id: id(8), signal: { kind: 'prompt', at: at(-min(40)) } })],
  ];

  it('R31 rows come in triage order, non-ambiguous needs-you first', () => {
    const order = run(
      stories.map(([, evidence]) => evidence),
      min(1),
    ).snapshot.sessions.map((row) => [row.triageRank, row.sessionId.slice(0, 8)]);
    expect(order).toEqual([
      [1, '00000001'],
      [1, '00000002'],
      [2, '00000003'],
      [9, '00000007'],
      [10, '00000008'],
      [11, '00000009'],
    ]);
  });

  it('R31 within ranks 1–6 the longest waiting comes first; within 7–11 the most recent activity', () => {
    const olderAsk = session({ id: id(5), signal: toolCall(0, [tool('AskUserQuestion', 'question')]) });
    const newerAsk = session({ id: id(4), signal: toolCall(sec(10), [tool('AskUserQuestion', 'question')]) });
    expect(run([newerAsk, olderAsk], min(1)).snapshot.sessions.map((row) => row.sessionId)).toEqual([id(5), id(4)]);
    const older = session({ id: id(5), signal: { kind: 'prompt', at: at(sec(1)) } });
    const newer = session({ id: id(4), signal: { kind: 'prompt', at: at(sec(9)) } });
    expect(run([older, newer], sec(10)).snapshot.sessions.map((row) => row.sessionId)).toEqual([id(4), id(5)]);
  });

  it('R31 the key breaks ties so the order is total', () => {
    const a = session({ id: id(1) });
    const b = session({ id: id(2) });
    expect(run([b, a], sec(1)).snapshot.sessions.map((row) => row.sessionId)).toEqual([id(1), id(2)]);
  });

  it('R31 muted rows come after every unmuted row', () => {
    const asking = session({ id: id(1), signal: toolCall(0, [tool('AskUserQuestion', 'question')]) });
    const idle = session({ id: id(9), signal: { kind: 'turn-end', at: T0, failed: false, detail: null } });
    const muted = { mutes: { [`claude:${id(1)}`]: { at: T0, until: null } } };
    const rows = run([asking, idle], sec(5), { facts: muted }).snapshot.sessions;
    expect(rows.map((row) => row.sessionId)).toEqual([id(9), id(1)]);
    expect(rows[1]?.triageRank).toBe(1);
  });

  it('R31 R81 reviewed, complete and outdated rank 12; flagged 6; needs-review 7 (the limit bands sit at 3 and 4)', () => {
    const idle = session({ signal: { kind: 'turn-end', at: T0, failed: false, detail: null } });
    for (const [state, rank] of [
      ['reviewed', 12],
      ['complete', 12],
      ['outdated', 12],
      ['flagged', 6],
      ['needs-review', 7],
    ] as const) {
      expect(rowOf(idle, sec(1), { facts: { reviews: { [KEY]: { state, at: T0, lastActivityAt: T0 } } } }).triageRank).toBe(rank);
    }
  });

  it.each([
    ['needs-you', [toolCall(0, [tool('AskUserQuestion', 'question')])], { count: 1, level: 'needs-you', needYou: 1, review: 0, working: 0, limited: 0 }],
    ['review', [{ kind: 'api-error' as const, at: T0, detail: null }], { count: 1, level: 'review', needYou: 0, review: 1, working: 0, limited: 0 }],
    ['working', [{ kind: 'prompt' as const, at: T0 }], { count: 0, level: 'working', needYou: 0, review: 0, working: 1, limited: 0 }],
    ['none', [{ kind: 'turn-end' as const, at: T0, failed: false, detail: null }], { count: 0, level: 'none', needYou: 0, review: 0, working: 0, limited: 0 }],
  ])('R32 attention level %s', (_label, signals, attention) => {
    const sessions = signals.map((signal, index) => session({ id: id(index), signal }));
    expect(run(sessions, sec(5)).snapshot.attention).toEqual(attention);
  });

  it('R32 muted and historical rows never count', () => {
    const asking = session({ signal: toolCall(0, [tool('AskUserQuestion', 'question')]) });
    expect(run([asking], sec(5), { facts: { mutes: { [KEY]: { at: T0, until: null } } } }).snapshot.attention).toEqual({
      count: 0,
      level: 'none',
      needYou: 0,
      review: 0,
      working: 0,
      limited: 0,
    });
    expect(run([asking], DEFAULT_TIMINGS.historicalAfter + 1).snapshot.attention.count).toBe(0);
  });

  it('R33 next is the first counted row, or none ("0 waiting")', () => {
    const evaluation = run(
      stories.map(([, evidence]) => evidence),
      min(1),
    );
    expect(evaluation.next?.sessionId).toBe(id(1));
    const [[, first] = []] = stories;
    if (first === undefined) throw new Error('a story');
    expect(run([first], min(1)).next).toBeNull();
  });

  it('R60 an expired mute is gone; a live one dims the row out of the count', () => {
    const asking = session({ signal: toolCall(0, [tool('AskUserQuestion', 'question')]) });
    const mutes = { mutes: { [KEY]: { at: T0, until: at(min(60)) } } };
    expect(rowOf(asking, min(60) - 1, { facts: mutes }).muted).toEqual({ until: new Date(at(min(60))).toISOString() });
    expect(rowOf(asking, min(60), { facts: mutes }).muted).toBeNull();
  });
});
