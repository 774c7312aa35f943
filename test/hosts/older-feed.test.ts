// Issue 46 on the feed: a Lookout from before usage limits (protocol 1 or 2) gets limited rows as
// it read them then, since its schema would refuse the whole line; protocol 3 gets them as they are.
import { describe, expect, it } from 'vitest';
import type { SessionEvidence } from '../../src/engine';
import { defaultSettings, emptyFacts, evaluate } from '../../src/engine';
import { snapshotSchema } from '../../src/engine/contract';
import { forOlderLookout } from '../../src/main/hosts/older-feed';
import { session } from '../engine/build';

const T0 = Date.parse('2026-12-04T12:00:00.000Z');
const HOUR = 3600_000;

function limitedSession(id: string, resetsIn: number): SessionEvidence {
  return session({
    id,
    title: 'stopped',
    lastRecordAt: T0,
    signal: { kind: 'usage-limit', at: T0, resetsAt: T0 + resetsIn, detail: "You've hit your limit · resets 3pm" },
    turn: { startedAt: T0 - 60_000, endedAt: T0, durationMs: null },
    usageWindows: [{ name: 'five_hour', usedPercent: 100, windowMinutes: 300, resetsAt: T0 + resetsIn, at: T0 }],
  });
}

const snapshotAt = (now: number) =>
  evaluate({
    sessions: [limitedSession('a', HOUR), { ...limitedSession('b', HOUR), signal: { kind: 'prompt', at: T0 } }],
    facts: emptyFacts(),
    settings: defaultSettings(),
    now,
    onScreen: null,
  }).snapshot;

/** The enums of a Lookout before issue 46: what its schema accepted. */
const OLDER = {
  states: ['running', 'running-subagents', 'awaiting-approval', 'awaiting-input', 'idle', 'ended', 'unknown', 'error'],
  claims: ['needs-you', 'failed', 'ready-for-review', 'finished'],
};

describe('issue 46: a feed to a Lookout from before usage limits', () => {
  it('R80 a limited row reads as a failed turn with the agent’s words, ranked as that Lookout ranks bands; no usage windows', () => {
    const older = forOlderLookout(snapshotAt(T0 + 60_000));
    const row = older.sessions.find((item) => item.sessionId === 'a');
    expect(row).toMatchObject({
      band: 'failed',
      triageRank: 2,
      workflow: 'needs-input',
      observed: { state: 'error', reason: 'api-error', detail: "You've hit your limit · resets 3pm" },
      claim: { kind: 'failed', expiresAt: null },
    });
    expect(older.sessions.find((item) => item.sessionId === 'b')).toMatchObject({ band: 'working', triageRank: 7 });
    expect('limits' in older).toBe(false);
    for (const item of older.sessions) {
      expect(OLDER.states).toContain(item.observed.state);
      if (item.claim !== null) expect(OLDER.claims).toContain(item.claim.kind);
    }
  });

  it('R81 after the reset it reads as one to look at (ready for review), counted as before', () => {
    const row = forOlderLookout(snapshotAt(T0 + HOUR + 1)).sessions.find((item) => item.sessionId === 'a');
    expect(row).toMatchObject({ band: 'ready-for-review', triageRank: 3, claim: { kind: 'ready-for-review' } });
  });

  it('R83 protocol 3 sends the rows and the limits as they are, and they validate', () => {
    const snapshot = snapshotAt(T0 + 60_000);
    const parsed = snapshotSchema.parse(JSON.parse(JSON.stringify(snapshot)));
    expect(parsed.sessions.find((item) => item.sessionId === 'a')).toMatchObject({ band: 'limited', resetsAt: new Date(T0 + HOUR).toISOString() });
    expect(parsed.limits).toEqual([
      {
        provider: 'claude',
        host: null,
        key: 'claude:a',
        windows: [{ name: 'five_hour', usedPercent: 100, windowMinutes: 300, resetsAt: new Date(T0 + HOUR).toISOString(), at: new Date(T0).toISOString() }],
      },
    ]);
  });
});
