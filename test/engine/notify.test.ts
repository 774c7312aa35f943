// R40–R43 (and R60): which claims notify, once, coalesced, and what the text says.
import { describe, expect, it } from 'vitest';
import { DEFAULT_TIMINGS, NOTIFY_LOOKBACK_MS, defaultSettings } from '../../src/engine';
import { KEY, at, min, run, sec, session, tool, toolCall, T0 } from './build';

const asking = (id = 'aaaa0000-0000-4000-8000-000000000001') =>
  session({
    id,
    signal: toolCall(0, [{ ...tool('AskUserQuestion', 'question'), detail: 'asks: Which database?' }]),
    cwd: '/home/me/api-server',
    branch: 'main',
  });

describe('notifications', () => {
  it('R40 a non-ambiguous needs-you notifies at once', () => {
    expect(run([asking()], 0).notification?.claimIds).toHaveLength(1);
  });

  it.each([
    ['just before ambiguousNotifyAfter', DEFAULT_TIMINGS.ambiguousNotifyAfter - 1, false],
    ['at ambiguousNotifyAfter', DEFAULT_TIMINGS.ambiguousNotifyAfter, true],
  ])('R40 an ambiguous needs-you notifies only after standing (%s)', (_label, standing, notifies) => {
    const pending = session({ signal: toolCall(0, [tool('Bash')]) });
    const now = DEFAULT_TIMINGS.toolPendingGrace + standing;
    expect(run([pending], now).notification !== null).toBe(notifies);
  });

  it('R40 failed and long finishes notify; muted, historical and on-screen rows do not', () => {
    const failed = session({ signal: { kind: 'api-error', at: T0, detail: 'overloaded' } });
    expect(run([failed], sec(1)).notification?.title).toContain('failed');
    // A clean tree read after the finish: nothing to review, so the finish itself is told.
    const finished = session({
      signal: { kind: 'turn-end', at: at(min(1)), failed: false, detail: null },
      turn: { startedAt: T0, endedAt: at(min(1)), durationMs: null },
      workingTree: { kind: 'read', at: at(min(1) + sec(1)), fingerprint: 'clean', changedFiles: 0 },
    });
    expect(run([finished], min(1) + sec(1)).notification?.title).toContain('finished');
    expect(run([asking()], 0, { facts: { mutes: { [KEY]: { at: T0, until: null } } } }).notification).toBeNull();
    expect(run([asking()], 0, { onScreen: KEY }).notification).toBeNull();
    expect(run([asking()], DEFAULT_TIMINGS.historicalAfter + 1).notification).toBeNull();
  });

  it.each([
    ['never read', { kind: 'unknown' as const }, false],
    ['read before the finish', { kind: 'read' as const, at: at(min(1) - 1), fingerprint: 'f', changedFiles: 0 }, false],
    ['git failed after the finish', { kind: 'unknown' as const, at: at(min(1)) }, true],
    ['no repository, asked after the finish', { kind: 'not-a-repo' as const, at: at(min(1) + 1) }, true],
    ['read after the finish', { kind: 'read' as const, at: at(min(1) + 1), fingerprint: 'f', changedFiles: 0 }, true],
  ])('R42 a long finish in a folder is told only once its working tree is known (%s)', (_label, workingTree, told) => {
    const finished = session({
      cwd: '/home/me/app',
      signal: { kind: 'turn-end', at: at(min(1)), failed: false, detail: null },
      turn: { startedAt: T0, endedAt: at(min(1)), durationMs: null },
      workingTree,
    });
    const plan = run([finished], min(1) + sec(1)).notification;
    expect(plan !== null).toBe(told);
  });

  it('R43 the provider is named as the registry names it (its id when no name is given)', () => {
    expect(run([asking()], 0, { providerNames: { claude: 'Claude Code' } }).notification?.title).toBe('Claude Code · api-server (main) needs you');
    expect(run([asking()], 0, { providerNames: {} }).notification?.title).toBe('claude · api-server (main) needs you');
  });

  it('R40 notification switches are honoured', () => {
    const settings = defaultSettings();
    settings.notifications.needsYou = false;
    expect(run([asking()], 0, { settings }).notification).toBeNull();
    settings.notifications = { ...settings.notifications, needsYou: true, enabled: false };
    expect(run([asking()], 0, { settings }).notification).toBeNull();
  });

  it('R40 an old failure seen for the first time is not replayed; an old question is', () => {
    const failed = session({ signal: { kind: 'api-error', at: T0, detail: null } });
    expect(run([failed], NOTIFY_LOOKBACK_MS + 1).notification).toBeNull();
    expect(run([asking()], NOTIFY_LOOKBACK_MS + 1).notification).not.toBeNull();
  });

  it('R41 each claim notifies at most once (the ledger survives restarts)', () => {
    const first = run([asking()], 0).notification;
    expect(first).not.toBeNull();
    expect(run([asking()], sec(2), { facts: { notified: first?.claimIds ?? [] } }).notification).toBeNull();
  });

  it('R41 a new claim on the same session notifies again', () => {
    const first = run([asking()], 0).notification?.claimIds ?? [];
    const later = session({ signal: toolCall(min(5), [tool('AskUserQuestion', 'question')]) });
    expect(run([later], min(5) + sec(1), { facts: { notified: first } }).notification).not.toBeNull();
  });

  it('R42 claims gained in one beat are coalesced into one notification', () => {
    const ids = ['aaaa0000-0000-4000-8000-000000000001', 'bbbb0000-0000-4000-8000-000000000002', 'cccc0000-0000-4000-8000-000000000003'];
    const plan = run(ids.map(asking), sec(1)).notification;
    expect(plan?.claimIds).toHaveLength(3);
    expect(plan?.title).toBe('3 sessions need you');
    expect(plan?.body.split('\n')).toHaveLength(3);
  });

  it('R42 a digest of many lists the first four, then how many more; it still carries every claim (issue 15)', () => {
    const ids = Array.from({ length: 7 }, (_, index) => `aaaa000${index}-0000-4000-8000-00000000000${index}`);
    const plan = run(ids.map(asking), sec(1)).notification;
    expect(plan?.title).toBe('7 sessions need you');
    expect(plan?.keys).toHaveLength(7);
    const lines = plan?.body.split('\n') ?? [];
    expect(lines).toHaveLength(5);
    expect(lines.slice(0, 4).every((line) => line.endsWith('needs you: asks: Which database?'))).toBe(true);
    expect(lines[4]).toBe('and 3 more');
  });

  it('R43 the text says who, where and why', () => {
    const plan = run([asking()], 0).notification;
    expect(plan?.title).toBe('Claude · api-server (main) needs you');
    expect(plan?.body).toBe('asks: Which database?');
  });

  it('R43 a finish says how long it took and how much changed', () => {
    const done = session({
      signal: { kind: 'turn-end', at: at(min(4) + sec(12)), failed: false, detail: null },
      turn: { startedAt: T0, endedAt: at(min(4) + sec(12)), durationMs: null },
      workingTree: { kind: 'read', at: at(min(5)), fingerprint: 'f1', changedFiles: 3 },
    });
    const plan = run([done], min(5)).notification;
    expect(plan?.title).toContain('ready for review');
    expect(plan?.body).toBe('finished in 4m 12s, 3 files changed');
  });

  it('R60 a muted session fires nothing and counts toward nothing', () => {
    const evaluation = run([asking()], 0, { facts: { mutes: { [KEY]: { at: T0, until: at(min(60)) } } } });
    expect(evaluation.notification).toBeNull();
    expect(evaluation.snapshot.attention.count).toBe(0);
    expect(evaluation.snapshot.sessions).toHaveLength(1);
  });
});
