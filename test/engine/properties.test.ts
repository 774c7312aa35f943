// Properties of the engine over random evidence: order is total and stable, workflow agrees
// with observation and review, the count matches the rows, inputs are never mutated.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PendingTool, ReviewState, SessionEvidence, TranscriptSignal, UserFacts } from '../../src/engine';
import { REVIEW_STATES, defaultSettings, emptyFacts, evaluate, mayWantWorkingTree } from '../../src/engine';
import { T0 } from './build';

const time = fc.integer({ min: T0 - 3 * 86_400_000, max: T0 + 60_000 });
const pending: fc.Arbitrary<PendingTool> = fc.record({
  id: fc.string({ maxLength: 4 }),
  name: fc.constantFrom('Bash', 'AskUserQuestion', 'ExitPlanMode', 'Task'),
  detail: fc.string({ maxLength: 8 }),
  category: fc.constantFrom('question', 'plan', 'subagent', 'generic'),
  escalation: fc.boolean(),
});
const signal: fc.Arbitrary<TranscriptSignal> = fc.oneof(
  fc.record({ kind: fc.constantFrom('prompt', 'tool-result', 'progress', 'interrupted'), at: time }) as fc.Arbitrary<TranscriptSignal>,
  fc.record({
    kind: fc.constant('tool-call' as const),
    at: time,
    pending: fc.array(pending, { maxLength: 3 }),
    approvalPolicy: fc.constantFrom(null, 'never', 'on-request', 'untrusted'),
  }),
  fc.record({ kind: fc.constant('assistant-text' as const), at: time, stop: fc.constantFrom('end' as const, 'tool-use' as const, 'none' as const) }),
  fc.record({ kind: fc.constant('turn-end' as const), at: time, failed: fc.boolean(), detail: fc.constant(null) }),
  fc.record({ kind: fc.constant('api-error' as const), at: time, detail: fc.constant('x') }),
);
const evidence: fc.Arbitrary<SessionEvidence> = fc.record({
  provider: fc.constantFrom('claude' as const, 'codex' as const),
  sessionId: fc.uuid(),
  title: fc.constant('t'),
  cwd: fc.constant('/w'),
  branch: fc.constant(null),
  transcriptSource: fc.constant('claude.transcript'),
  lastRecordAt: fc.option(time, { nil: null }),
  signal: fc.option(signal, { nil: null }),
  turn: fc.option(fc.record({ startedAt: time, endedAt: fc.option(time, { nil: null }), durationMs: fc.option(fc.nat(600_000), { nil: null }) }), {
    nil: null,
  }),
  direct: fc.array(
    fc.record({
      kind: fc.constant('registry-status' as const),
      source: fc.constant('claude.session-registry'),
      at: time,
      status: fc.constantFrom('busy', 'idle', 'waiting', 'odd'),
      waitingFor: fc.constantFrom(null, 'permission prompt', 'input needed', 'other'),
    }),
    { maxLength: 2 },
  ),
  liveness: fc.constantFrom({ kind: 'unreported' as const }, { kind: 'alive' as const, pid: 1 }),
  children: fc.array(
    fc.record({
      id: fc.string({ maxLength: 3 }),
      name: fc.constant('c'),
      role: fc.constantFrom('agent' as const, 'watcher' as const),
      source: fc.constant('claude.transcript'),
      startedAt: time,
      lastAt: time,
      signal: fc.option(signal, { nil: null }),
      request: fc.constant(null),
    }),
    { maxLength: 3 },
  ),
  workingTree: fc.constantFrom({ kind: 'unknown' as const }, { kind: 'read' as const, at: T0, fingerprint: 'f', changedFiles: 2 }),
  notices: fc.constant([]),
  skippedLines: fc.constant(0),
});
const world = fc.record({
  sessions: fc.uniqueArray(evidence, { maxLength: 8, selector: (item) => `${item.provider}:${item.sessionId}` }),
  reviews: fc.array(fc.constantFrom(...REVIEW_STATES), { maxLength: 8 }),
  mutedMask: fc.array(fc.boolean(), { maxLength: 8 }),
});

function factsFor(sessions: SessionEvidence[], reviews: ReviewState[], mutedMask: boolean[]): UserFacts {
  const facts = emptyFacts();
  sessions.forEach((item, index) => {
    const key = `${item.provider}:${item.sessionId}`;
    const review = reviews[index];
    if (review !== undefined) facts.reviews[key] = { state: review, at: T0 - 1000, lastActivityAt: null };
    if (mutedMask[index] === true) facts.mutes[key] = { at: T0, until: null };
  });
  return facts;
}

const settings = defaultSettings();

describe('engine properties', () => {
  it('R31 triage order is total and stable: any input order gives the same rows', () => {
    fc.assert(
      fc.property(world, fc.integer(), ({ sessions, reviews, mutedMask }, seed) => {
        const facts = factsFor(sessions, reviews, mutedMask);
        const shuffled = [...sessions].sort((a, b) => ((a.sessionId.charCodeAt(0) * seed) % 7) - ((b.sessionId.charCodeAt(0) * seed) % 7));
        const one = evaluate({ sessions, facts, settings, now: T0, onScreen: null }).snapshot.sessions.map((row) => row.key);
        const two = evaluate({ sessions: shuffled, facts, settings, now: T0, onScreen: null }).snapshot.sessions.map((row) => row.key);
        expect(two).toEqual(one);
      }),
      { numRuns: 300 },
    );
  });

  it('R31 muted rows follow unmuted ones and ranks never decrease within each part', () => {
    fc.assert(
      fc.property(world, ({ sessions, reviews, mutedMask }) => {
        const rows = evaluate({ sessions, facts: factsFor(sessions, reviews, mutedMask), settings, now: T0, onScreen: null }).snapshot.sessions;
        for (const [index, after] of rows.entries()) {
          const before = rows[index - 1];
          if (before === undefined) continue;
          expect(before.muted !== null && after.muted === null).toBe(false);
          if ((before.muted === null) === (after.muted === null)) expect(before.triageRank).toBeLessThanOrEqual(after.triageRank);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('R20 every workflow agrees with its observed state and review state', () => {
    fc.assert(
      fc.property(world, ({ sessions, reviews, mutedMask }) => {
        const rows = evaluate({ sessions, facts: factsFor(sessions, reviews, mutedMask), settings, now: T0, onScreen: null }).snapshot.sessions;
        for (const row of rows) {
          const { state, reason } = row.observed;
          const asking = ['awaiting-approval', 'awaiting-input', 'error'].includes(state) || (state === 'unknown' && reason === 'tool-pending');
          if (asking && !row.historical) expect(row.workflow).toBe('needs-input');
          else if (state === 'running' || state === 'running-subagents') expect(row.workflow).toBe('working');
          else if (row.review.state !== 'unreviewed') expect(row.workflow).toBe(row.review.state);
          else if (state === 'idle' || state === 'ended') expect(row.workflow).toBe('unreviewed');
          else expect(row.workflow).toBe('unknown');
          if (row.historical) expect(row.claim).toBeNull();
        }
      }),
      { numRuns: 300 },
    );
  });

  it('R32 R81 the attention count is the number of unmuted, non-historical rows in the counted bands (ranks 1–7 but limited)', () => {
    fc.assert(
      fc.property(world, ({ sessions, reviews, mutedMask }) => {
        const { snapshot } = evaluate({ sessions, facts: factsFor(sessions, reviews, mutedMask), settings, now: T0, onScreen: null });
        const counted = snapshot.sessions.filter((row) => row.muted === null && !row.historical && row.triageRank <= 7 && row.band !== 'limited');
        expect(snapshot.attention.count).toBe(counted.length);
        expect(snapshot.attention.level === 'needs-you').toBe(counted.some((row) => row.triageRank === 1));
      }),
      { numRuns: 300 },
    );
  });

  it('the engine is pure: same input, same output, input untouched', () => {
    fc.assert(
      fc.property(world, ({ sessions, reviews, mutedMask }) => {
        const facts = factsFor(sessions, reviews, mutedMask);
        const before = JSON.stringify({ sessions, facts });
        const one = evaluate({ sessions, facts, settings, now: T0, onScreen: null });
        const two = evaluate({ sessions, facts, settings, now: T0, onScreen: null });
        expect(JSON.stringify(one.snapshot)).toBe(JSON.stringify(two.snapshot));
        expect(JSON.stringify({ sessions, facts })).toBe(before);
      }),
      { numRuns: 200 },
    );
  });
});

describe('the next change', () => {
  it('rows stay exactly as they are at every instant before nextChangeAt (the beat may skip until then)', () => {
    const quiet = { ...settings, rules: [] };
    fc.assert(
      fc.property(world, fc.integer({ min: 0, max: 1_000_000 }), ({ sessions, reviews, mutedMask }, fraction) => {
        const facts = factsFor(sessions, reviews, mutedMask);
        const first = evaluate({ sessions, facts, settings: quiet, now: T0, onScreen: null });
        const horizon = first.nextChangeAt === null ? T0 + 86_400_000 * 30 : first.nextChangeAt;
        const later = T0 + Math.floor(((horizon - 1 - T0) * fraction) / 1_000_000);
        const second = evaluate({ sessions, facts, settings: quiet, now: later, onScreen: null });
        expect(JSON.stringify(second.snapshot.sessions)).toBe(JSON.stringify(first.snapshot.sessions));
        expect(second.snapshot.attention).toEqual(first.snapshot.attention);
        expect(second.notification?.claimIds ?? []).toEqual(first.notification?.claimIds ?? []);
      }),
      { numRuns: 500 },
    );
  });

  it('the rows do change at nextChangeAt for a pending tool call (R3 grace)', () => {
    const pending = {
      ...baseEvidence(),
      signal: {
        kind: 'tool-call' as const,
        at: T0,
        pending: [{ id: 'c', name: 'Bash', detail: 'Bash: x', category: 'generic' as const, escalation: false }],
        approvalPolicy: null,
      },
    };
    const first = evaluate({ sessions: [pending], facts: emptyFacts(), settings: { ...settings, rules: [] }, now: T0 + 1000, onScreen: null });
    // A bound, not an exact instant: the assistant-text settle time (3 s) comes first here.
    expect(first.nextChangeAt).toBeLessThanOrEqual(T0 + settings.timings.toolPendingGrace);
    const after = evaluate({
      sessions: [pending],
      facts: emptyFacts(),
      settings: { ...settings, rules: [] },
      now: T0 + settings.timings.toolPendingGrace,
      onScreen: null,
    });
    expect(after.snapshot.sessions[0]?.observed.reason).toBe('tool-pending');
  });
});

function baseEvidence(): SessionEvidence {
  return {
    provider: 'claude',
    sessionId: 'a',
    title: null,
    cwd: null,
    branch: null,
    transcriptSource: 'claude.transcript',
    lastRecordAt: T0,
    signal: null,
    turn: null,
    direct: [],
    liveness: { kind: 'unreported' },
    children: [],
    workingTree: { kind: 'unknown' },
    notices: [],
    skippedLines: 0,
  };
}

describe('incremental evaluation', () => {
  it('reusing the previous evaluation gives exactly what a fresh one gives, at any later instant', () => {
    fc.assert(
      fc.property(world, fc.integer({ min: 0, max: 3 * 86_400_000 }), ({ sessions, reviews, mutedMask }, step) => {
        const facts = factsFor(sessions, reviews, mutedMask);
        const first = evaluate({ sessions, facts, settings, now: T0, onScreen: null });
        const reused = evaluate({ sessions, facts, settings, now: T0 + step, onScreen: null, previous: first });
        const fresh = evaluate({ sessions, facts, settings, now: T0 + step, onScreen: null });
        expect(JSON.stringify(reused.snapshot)).toBe(JSON.stringify(fresh.snapshot));
        expect(reused.nextChangeAt).toBe(fresh.nextChangeAt);
        expect(reused.notification).toEqual(fresh.notification);
      }),
      { numRuns: 400 },
    );
  });
});

describe('issue 27: a row that reads the same is the same object', () => {
  it('sessions derived again (facts replaced by an equal copy, time moved) keep every row that reads as before, and only those', () => {
    fc.assert(
      fc.property(world, fc.integer({ min: 0, max: 86_400_000 }), ({ sessions, reviews, mutedMask }, step) => {
        const facts = factsFor(sessions, reviews, mutedMask);
        const first = evaluate({ sessions, facts, settings, now: T0, onScreen: null });
        const again = evaluate({ sessions, facts: { ...facts }, settings, now: T0 + step, onScreen: null, previous: first });
        const before = new Map(first.snapshot.sessions.map((row) => [row.key, row]));
        for (const row of again.snapshot.sessions) {
          const earlier = before.get(row.key);
          expect(row === earlier).toBe(JSON.stringify(row) === JSON.stringify(earlier));
        }
        expect(JSON.stringify(again.snapshot)).toBe(JSON.stringify(evaluate({ sessions, facts, settings, now: T0 + step, onScreen: null }).snapshot));
      }),
      { numRuns: 300 },
    );
  });
});

describe('issue 27: the triage order carried from the previous evaluation', () => {
  it('a chain of reused evaluations orders the rows as a fresh one does, each step (R31)', () => {
    fc.assert(
      fc.property(world, fc.array(fc.integer({ min: 0, max: 86_400_000 }), { minLength: 1, maxLength: 6 }), ({ sessions, reviews, mutedMask }, steps) => {
        const facts = factsFor(sessions, reviews, mutedMask);
        let previous = evaluate({ sessions, facts, settings, now: T0, onScreen: null });
        let now = T0;
        for (const step of steps) {
          now += step;
          const reused = evaluate({ sessions, facts, settings, now, onScreen: null, previous });
          const fresh = evaluate({ sessions, facts, settings, now, onScreen: null });
          expect(reused.snapshot.sessions.map((row) => row.key)).toEqual(fresh.snapshot.sessions.map((row) => row.key));
          expect(JSON.stringify(reused.snapshot)).toBe(JSON.stringify(fresh.snapshot));
          previous = reused;
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('issue 27: a beat where only time moved derives again only the sessions whose time came', () => {
  const ruled = {
    ...settings,
    rules: [
      ...settings.rules,
      { id: 'outdated-1h', version: 1, when: { inactiveFor: '1h' }, set: 'outdated' as const },
      { id: 'mute-2d', version: 1, when: { inactiveFor: '2d' }, mute: true },
    ],
  };
  it('landing exactly on nextChangeAt, or days later with rules applying, a chain of reused evaluations equals fresh ones (R22, R31)', () => {
    fc.assert(
      fc.property(
        world,
        fc.array(fc.option(fc.integer({ min: 0, max: 10 * 86_400_000 }), { nil: null }), { minLength: 1, maxLength: 8 }),
        ({ sessions, reviews, mutedMask }, steps) => {
          const facts = factsFor(sessions, reviews, mutedMask);
          let previous = evaluate({ sessions, facts, settings: ruled, now: T0, onScreen: null });
          let now = T0;
          for (const step of steps) {
            // null: exactly the instant the previous evaluation said the rows could change.
            now = step === null ? (previous.nextChangeAt ?? now + 1000) : now + step;
            const reused = evaluate({ sessions, facts, settings: ruled, now, onScreen: null, previous });
            const fresh = evaluate({ sessions, facts, settings: ruled, now, onScreen: null });
            expect(JSON.stringify(reused.snapshot)).toBe(JSON.stringify(fresh.snapshot));
            expect(reused.nextChangeAt).toBe(fresh.nextChangeAt);
            expect(reused.ruleApplications).toEqual(fresh.ruleApplications);
            previous = reused;
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('issue 27: a beat costs what was derived again', () => {
  const wide = fc.record({
    sessions: fc.uniqueArray(evidence, { minLength: 16, maxLength: 48, selector: (item) => `${item.provider}:${item.sessionId}` }),
    reviews: fc.array(fc.constantFrom(...REVIEW_STATES), { maxLength: 48 }),
    mutedMask: fc.array(fc.boolean(), { maxLength: 48 }),
  });
  it('over many sessions, a chain of beats reads as fresh evaluations (derivations, rows, count); a beat where no row changed keeps the very rows array (R31, R32)', () => {
    fc.assert(
      fc.property(
        wide,
        fc.array(fc.option(fc.integer({ min: 0, max: 3_600_000 }), { nil: null }), { minLength: 1, maxLength: 12 }),
        ({ sessions, reviews, mutedMask }, steps) => {
          const facts = factsFor(sessions, reviews, mutedMask);
          let previous = evaluate({ sessions, facts, settings, now: T0, onScreen: null });
          let now = T0;
          for (const step of steps) {
            now = step === null ? (previous.nextChangeAt ?? now + 1000) : now + step;
            const reused = evaluate({ sessions, facts, settings, now, onScreen: null, previous });
            const fresh = evaluate({ sessions, facts, settings, now, onScreen: null });
            expect(JSON.stringify(reused.snapshot)).toBe(JSON.stringify(fresh.snapshot));
            expect(reused.next?.key).toBe(fresh.next?.key);
            expect(reused.nextChangeAt).toBe(fresh.nextChangeAt);
            expect([...reused.derived.keys()]).toEqual([...fresh.derived.keys()]);
            for (const [key, session] of reused.derived) expect(session.row).toEqual(fresh.derived.get(key)?.row);
            expect(reused.wantingTrees).toEqual(fresh.wantingTrees);
            const same = reused.snapshot.sessions.every((row, index) => row === previous.snapshot.sessions[index]);
            expect(reused.snapshot.sessions === previous.snapshot.sessions).toBe(same);
            previous = reused;
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('issue 27: a beat that keeps the order still counts again', () => {
  it('a row under review whose work goes stale keeps its place, and the working count drops as in a fresh evaluation (R32)', () => {
    const working = { ...baseEvidence(), signal: { kind: 'assistant-text' as const, at: T0 - 60_000, stop: 'tool-use' as const } };
    const other = { ...baseEvidence(), sessionId: 'b' };
    const facts = emptyFacts();
    facts.reviews['claude:a'] = { state: 'needs-review', at: T0 - 1000, lastActivityAt: null };
    const first = evaluate({ sessions: [working, other], facts, settings, now: T0, onScreen: null });
    expect(first.snapshot.attention.working).toBe(1);
    const later = T0 + 30 * 60_000;
    const beat = evaluate({ sessions: [working, other], facts, settings, now: later, onScreen: null, previous: first });
    const fresh = evaluate({ sessions: [working, other], facts, settings, now: later, onScreen: null });
    expect(beat.snapshot.sessions.map((row) => row.key)).toEqual(first.snapshot.sessions.map((row) => row.key));
    expect(beat.snapshot.attention).toEqual(fresh.snapshot.attention);
    expect(beat.snapshot.attention.working).toBe(0);
  });

  it('a flagged row whose long turn settles into a finish keeps its place, and its working tree is wanted as in a fresh evaluation', () => {
    const settling = {
      ...baseEvidence(),
      cwd: '/w',
      turn: { startedAt: T0 - 600_000, endedAt: null, durationMs: null },
      signal: { kind: 'assistant-text' as const, at: T0, stop: 'none' as const },
    };
    const other = { ...baseEvidence(), sessionId: 'b' };
    const facts = emptyFacts();
    facts.reviews['claude:a'] = { state: 'flagged', at: T0 - 700_000, lastActivityAt: null };
    const first = evaluate({ sessions: [settling, other], facts, settings, now: T0, onScreen: null });
    const later = T0 + 60_000;
    const beat = evaluate({ sessions: [settling, other], facts, settings, now: later, onScreen: null, previous: first });
    const fresh = evaluate({ sessions: [settling, other], facts, settings, now: later, onScreen: null });
    expect(first.wantingTrees).toEqual([]);
    expect(beat.snapshot.sessions.map((row) => row.key)).toEqual(first.snapshot.sessions.map((row) => row.key));
    expect(beat.wantingTrees).toEqual(['claude:a']);
    expect(fresh.wantingTrees).toEqual(['claude:a']);
  });
});

describe('issue 27: an evaluation made once (a one-shot command) works out no change instant', () => {
  it("its rows, notification and rules are a timed one's; a later evaluation never carries its derivations, one at its instant does", () => {
    fc.assert(
      fc.property(world, fc.integer({ min: 1, max: 3 * 86_400_000 }), ({ sessions, reviews, mutedMask }, step) => {
        const facts = factsFor(sessions, reviews, mutedMask);
        const once = evaluate({ sessions, facts, settings, now: T0, onScreen: null, once: true });
        const timed = evaluate({ sessions, facts, settings, now: T0, onScreen: null });
        expect(JSON.stringify(once.snapshot)).toBe(JSON.stringify(timed.snapshot));
        expect(once.notification).toEqual(timed.notification);
        expect(once.ruleApplications).toEqual(timed.ruleApplications);
        expect([once.nextChangeAt, once.onlyAt, timed.onlyAt]).toEqual([null, T0, null]);
        const later = evaluate({ sessions, facts, settings, now: T0 + step, onScreen: null, previous: once });
        const fresh = evaluate({ sessions, facts, settings, now: T0 + step, onScreen: null });
        expect(JSON.stringify(later.snapshot)).toBe(JSON.stringify(fresh.snapshot));
        expect(later.nextChangeAt).toBe(fresh.nextChangeAt);
        // At its own instant (a one-shot's second pass for working trees), every derivation is carried.
        const again = evaluate({ sessions, facts, settings, now: T0, onScreen: null, previous: once, once: true });
        for (const [key, session] of again.derived) expect(session).toBe(once.derived.get(key));
      }),
      { numRuns: 300 },
    );
  });
});

describe('issue 27: the folders a one-shot reads before deriving', () => {
  it('every session whose turn has a recorded end and whose derivation wants its working tree is one mayWantWorkingTree names (visited or not, at any instant)', () => {
    let wanting = 0;
    let named = 0;
    let unended = 0;
    fc.assert(
      fc.property(world, fc.array(fc.option(time, { nil: null }), { maxLength: 8 }), time, ({ sessions, reviews, mutedMask }, visits, now) => {
        const facts = factsFor(sessions, reviews, mutedMask);
        sessions.forEach((item, index) => {
          const at = visits[index];
          if (at !== undefined && at !== null) facts.visits[`${item.provider}:${item.sessionId}`] = { at, fingerprint: null };
        });
        const evaluation = evaluate({ sessions, facts, settings, now, onScreen: null });
        for (const item of sessions) {
          const may = mayWantWorkingTree(item, facts, now, settings.timings);
          if (may) named += 1;
          if (evaluation.derived.get(`${item.provider}:${item.sessionId}`)?.wantsWorkingTree !== true) continue;
          // A turn with no recorded end is not read ahead (the one-shot reads it afterwards).
          if (item.turn?.endedAt === null) {
            unended += 1;
            continue;
          }
          wanting += 1;
          expect(may).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
    // The property is not empty: trees were wanted, and sessions named that want none (the superset is not "all").
    expect(wanting).toBeGreaterThan(50);
    expect(named).toBeGreaterThan(wanting);
    // The one-shot's second read exists for these: the random sessions hold some.
    expect(unended).toBeGreaterThan(0);
  });
});

describe('the change bound, computed without trying every anchor and offset', () => {
  const brute = (times: number[], spans: number[], now: number): number | null => {
    let next: number | null = null;
    for (const anchor of times) {
      for (const span of spans) {
        const at = anchor + span;
        const first = at > now ? at : at + 1 > now ? at + 1 : null;
        if (first !== null && (next === null || first < next)) next = first;
      }
    }
    return next;
  };

  it('equals the earliest crossing of every anchor and offset, whole or fractional milliseconds', async () => {
    const { earliestCrossing } = await import('../../src/engine/next-change');
    const instant = fc.oneof(fc.integer({ min: -5_000, max: 5_000 }), fc.double({ min: -5_000, max: 5_000, noNaN: true }));
    fc.assert(
      fc.property(
        fc.array(instant, { maxLength: 12 }),
        fc.array(fc.oneof(fc.integer({ min: 0, max: 4_000 }), fc.double({ min: 0, max: 4_000, noNaN: true })), { maxLength: 14 }),
        instant,
        (times, spans, now) => {
          const sorted = [...spans].sort((a, b) => a - b);
          expect(earliestCrossing(times, sorted, now)).toBe(brute(times, sorted, now));
        },
      ),
      { numRuns: 150 },
    );
  });
});
