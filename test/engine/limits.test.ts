// §14, R80–R84: a turn a usage limit stopped, its reset, its notices, and the usage windows.
import { describe, expect, it } from 'vitest';
import type { SessionEvidence, TranscriptSignal, UsageWindow } from '../../src/engine';
import { DEFAULT_TIMINGS, defaultSettings } from '../../src/engine';
import { KEY, at, min, registry, rowOf, run, sec, session } from './build';

const HOUR = min(60);
const limit = (offsetMs: number, resetsIn: number | null, detail: string | null = "You've hit your limit · resets 3pm"): TranscriptSignal => ({
  kind: 'usage-limit',
  at: at(offsetMs),
  resetsAt: resetsIn === null ? null : at(offsetMs + resetsIn),
  detail,
});
const limited = (id?: string, resetsIn: number | null = HOUR, offset = min(1)): SessionEvidence =>
  session({ ...(id === undefined ? {} : { id }), signal: limit(offset, resetsIn), turn: { startedAt: at(0), endedAt: at(offset), durationMs: null } });

describe('usage limits', () => {
  it('R80 a turn a usage limit ended reads limited, with the reset and the agent’s words', () => {
    const row = rowOf(limited(), min(2));
    expect(row.observed).toMatchObject({ state: 'limited', reason: 'usage-limit', detail: "You've hit your limit · resets 3pm" });
    expect(row.resetsAt).toBe(new Date(at(min(1) + HOUR)).toISOString());
    expect(row.workflow).toBe('limited');
  });

  it('R81 before its reset the row carries a limited claim, listed between failed and ready-for-review and never counted', () => {
    const failed = session({ id: 'bbbb0000-0000-4000-8000-000000000002', signal: { kind: 'api-error', at: at(sec(1)), detail: 'overloaded' } });
    const evaluation = run([limited(), failed], min(2));
    const rows = evaluation.snapshot.sessions;
    expect(rows.map((row) => row.band)).toEqual(['failed', 'limited']);
    expect(rows[1]?.claim).toMatchObject({ kind: 'limited', expiresAt: new Date(at(min(1) + HOUR)).toISOString() });
    expect(evaluation.snapshot.attention).toMatchObject({ count: 1, review: 1, limited: 1 });
  });

  it.each([
    ['just before the reset', min(1) + HOUR - 1, 'limited', 0],
    ['at the reset', min(1) + HOUR, 'limit-reset', 1],
  ])('R81 %s', (_label, now, kind, count) => {
    const evaluation = run([limited()], now);
    expect(evaluation.snapshot.sessions[0]?.claim?.kind).toBe(kind);
    expect(evaluation.snapshot.attention.count).toBe(count);
  });

  it('R81 the evaluation changes at the reset instant by itself (the beat need not guess)', () => {
    const before = run([limited()], min(2));
    expect(before.nextChangeAt).not.toBeNull();
    expect(before.nextChangeAt).toBeLessThanOrEqual(at(min(1) + HOUR));
  });

  it('R81 limit-reset clears with a visit after the reset, not with one before it', () => {
    const visitedBefore = rowOf(limited(), min(1) + HOUR + sec(5), { facts: { visits: { [KEY]: { at: at(min(2)), fingerprint: null } } } });
    expect(visitedBefore.claim?.kind).toBe('limit-reset');
    const visitedAfter = rowOf(limited(), min(1) + HOUR + sec(5), { facts: { visits: { [KEY]: { at: at(min(1) + HOUR + sec(1)), fingerprint: null } } } });
    expect(visitedAfter.claim).toBeNull();
  });

  it('R80 quitting the agent after its limit stopped the turn leaves it limited: at the reset it can go on (R84: open resumes it)', () => {
    const dead = { ...limited(), liveness: { kind: 'dead', source: 'qwen.runtime', pid: 42, at: at(min(3)), why: 'no-process' } } as const;
    const row = rowOf(dead, min(4));
    expect(row.observed).toMatchObject({ state: 'limited', reason: 'usage-limit' });
    expect(rowOf(dead, min(1) + HOUR + sec(1)).claim?.kind).toBe('limit-reset');
    const removed = rowOf({ ...limited(), liveness: { kind: 'removed', source: 'claude.registry', at: at(min(3)) } }, min(4));
    expect(removed.observed.state).toBe('limited');
    // A turn that was not stopped by a limit still ends with its process.
    const finished = session({
      signal: { kind: 'assistant-text', at: at(min(1)), stop: 'end' },
      liveness: { kind: 'dead', source: 'qwen.runtime', pid: 42, at: at(min(3)), why: 'no-process' },
    });
    expect(rowOf(finished, min(4)).observed.state).toBe('ended');
  });

  it('R81 a new turn clears both', () => {
    const resumed = session({ signal: { kind: 'prompt', at: at(min(1) + HOUR + sec(10)) } });
    const row = rowOf(resumed, min(1) + HOUR + sec(11));
    expect(row.observed.state).toBe('running');
    expect(row.claim).toBeNull();
    expect(row.resetsAt).toBeNull();
  });

  it('R80 without a reset instant the row stays limited with the agent’s words: no time is guessed', () => {
    const row = rowOf(limited(undefined, null), min(1) + 20 * HOUR);
    expect(row.claim).toMatchObject({ kind: 'limited', expiresAt: null, detail: "You've hit your limit · resets 3pm" });
    expect(row.resetsAt).toBeNull();
  });

  it('R81 R5 a weekly limit stays listed past historicalAfter until its reset, and tells the reset', () => {
    const weekly = limited(undefined, 5 * 24 * HOUR);
    expect(rowOf(weekly, DEFAULT_TIMINGS.historicalAfter + min(10)).band).toBe('limited');
    const reset = run([weekly], min(1) + 5 * 24 * HOUR + sec(1));
    expect(reset.snapshot.sessions[0]?.band).toBe('limit-reset');
    expect(reset.notification?.title).toContain('usage limit reset');
  });

  it('R80 an idle notice or a failure hook after the limit record does not overwrite it', () => {
    const idleNotice = { kind: 'hook' as const, source: 'claude.hook', at: at(min(2)), event: 'idle-notice' as const, detail: null };
    const failure = { kind: 'hook' as const, source: 'claude.hook', at: at(min(1)), event: 'stop-failure' as const, detail: 'rate_limit' };
    expect(rowOf({ ...limited(), direct: [failure, idleNotice] }, min(3)).observed.state).toBe('limited');
    expect(rowOf({ ...limited(), direct: [registry('idle', min(2))], liveness: { kind: 'alive', pid: 42 } }, min(3)).observed.state).toBe('limited');
  });

  it('R80 a prompt hook after the limit (the person went on) is work again', () => {
    const midTurn = { kind: 'hook' as const, source: 'claude.hook', at: at(min(5)), event: 'mid-turn' as const, detail: null };
    expect(rowOf({ ...limited(), direct: [midTurn] }, min(5) + sec(1)).observed.state).toBe('running');
  });

  it('R82 a limit notifies once per provider and reset, coalesced: "stopped in 2 sessions"', () => {
    const a = limited('aaaa0000-0000-4000-8000-000000000001');
    const b = limited('bbbb0000-0000-4000-8000-000000000002');
    const plan = run([a, b], min(2)).notification;
    expect(plan?.title).toMatch(/^Claude stopped in 2 sessions: usage limit until \d\d:\d\d$/);
    expect(plan?.claimIds).toHaveLength(2);
    // The first session was told; a second one stopped by the same limit a little later is not news.
    const told = run([a], min(2)).notification?.claimIds ?? [];
    const later = limited('bbbb0000-0000-4000-8000-000000000002', HOUR - sec(20), min(1) + sec(20));
    expect(run([a, later], min(2), { facts: { notified: told } }).notification).toBeNull();
  });

  it('R82 the reset is told once per provider: "2 sessions stopped mid-task can go on"', () => {
    const a = limited('aaaa0000-0000-4000-8000-000000000001');
    const b = limited('bbbb0000-0000-4000-8000-000000000002');
    const plan = run([a, b], min(1) + HOUR + sec(1)).notification;
    expect(plan?.title).toBe("Claude's usage limit reset: 2 sessions stopped mid-task can go on");
  });

  it('R82 the limits switch and a mute hold the notices back', () => {
    const settings = defaultSettings();
    settings.notifications.limits = false;
    expect(run([limited()], min(2), { settings }).notification).toBeNull();
    expect(run([limited()], min(2), { facts: { mutes: { [KEY]: { at: at(0), until: null } } } }).notification).toBeNull();
  });

  it('R83 the newest usage windows per provider are published; a window past its reset is not', () => {
    const window = (name: string, offset: number, resetsIn: number): UsageWindow => ({
      name,
      usedPercent: 42,
      windowMinutes: 300,
      resetsAt: at(offset + resetsIn),
      at: at(offset),
    });
    const older = session({ id: 'aaaa0000-0000-4000-8000-000000000001', provider: 'codex', usageWindows: [window('primary', 0, HOUR)] });
    const newer = session({
      id: 'bbbb0000-0000-4000-8000-000000000002',
      provider: 'codex',
      usageWindows: [window('primary', min(5), HOUR), window('secondary', min(5), 7 * 24 * HOUR)],
    });
    const limits = run([older, newer], min(6)).snapshot.limits;
    expect(limits).toHaveLength(1);
    expect(limits[0]).toMatchObject({ provider: 'codex', key: 'codex:bbbb0000-0000-4000-8000-000000000002', host: null });
    expect(limits[0]?.windows.map((item) => item.name)).toEqual(['primary', 'secondary']);
    expect(run([older, newer], min(5) + HOUR + 1).snapshot.limits[0]?.windows.map((item) => item.name)).toEqual(['secondary']);
  });

  it('R80 a child a limit stopped is blocked, not waiting, and the lead’s limit is the row’s', () => {
    const lead = limited();
    const row = rowOf(
      {
        ...lead,
        children: [
          {
            id: 'c',
            name: 'Ada',
            role: 'agent',
            source: 'claude.transcript',
            startedAt: at(0),
            lastAt: at(min(1)),
            signal: limit(min(1), HOUR),
            request: null,
          },
        ],
      },
      min(2),
    );
    expect(row.observed.state).toBe('limited');
  });
});
