// Issue 16 (R22 extended): rules per project match sessions by folder (glob), provider and host,
// then mute them or set a review state once per version (recorded), or set how much they notify.
import { describe, expect, it } from 'vitest';
import type { AutomationRule } from '../../src/engine';
import { defaultSettings, globMatch } from '../../src/engine';
import { KEY, at, min, run, session, tool, toolCall, T0 } from './build';

const asking = (cwd = '/home/me/work/noisy/api') =>
  session({ signal: toolCall(0, [{ ...tool('AskUserQuestion', 'question'), detail: 'asks: Which database?' }]), cwd, branch: 'main' });
const withRules = (rules: AutomationRule[]) => ({ ...defaultSettings(), rules });

describe('rules per project (issue 16)', () => {
  it('folder globs: * within a name, ** at any depth, a folder/** also the folder itself', () => {
    expect(globMatch('/home/me/work/noisy/**', '/home/me/work/noisy')).toBe(true);
    expect(globMatch('/home/me/work/noisy/**', '/home/me/work/noisy/api/src')).toBe(true);
    expect(globMatch('/home/me/work/*/api', '/home/me/work/noisy/api')).toBe(true);
    expect(globMatch('/home/me/work/*/api', '/home/me/work/a/b/api')).toBe(false);
    expect(globMatch('/home/me/work/noisy', '/home/me/work/noisy-other')).toBe(false);
    expect(globMatch('/home/me/(x)+[y]', '/home/me/(x)+[y]')).toBe(true);
  });

  it('a mute rule mutes the sessions of its folder at once, and is applied once (recorded): others stay', () => {
    const rule: AutomationRule = { id: 'mute-noisy', version: 1, when: { folder: '/home/me/work/noisy/**' }, mute: true };
    const evaluation = run([asking()], 0, { settings: withRules([rule]) });
    expect(evaluation.snapshot.sessions[0]?.muted).toEqual({ until: null });
    expect(evaluation.notification).toBeNull();
    expect(evaluation.ruleApplications).toEqual([expect.objectContaining({ key: KEY, ruleId: 'mute-noisy', version: 1, set: null, mute: true })]);
    // Recorded: not applied again (the user may have unmuted since).
    const later = run([asking()], min(1), { settings: withRules([rule]), facts: { ruleLedger: evaluation.ruleApplications } });
    expect(later.ruleApplications).toEqual([]);
    expect(later.snapshot.sessions[0]?.muted).toBeNull();
    // Another folder: untouched.
    expect(run([asking('/home/me/work/quiet/api')], 0, { settings: withRules([rule]) }).snapshot.sessions[0]?.muted).toBeNull();
  });

  it('notify levels: never, needs-you only, everything; by provider and host too', () => {
    const failed = session({ cwd: '/home/me/work/noisy/api', signal: { kind: 'api-error', at: T0, detail: 'overloaded' } });
    const level = (notify: 'never' | 'needs-you' | 'everything', extra: object = {}) =>
      withRules([{ id: 'level', version: 1, when: { folder: '/home/me/work/**', ...extra }, notify }]);
    expect(run([asking()], 0, { settings: level('never') }).notification).toBeNull();
    expect(run([asking()], 0, { settings: level('needs-you') }).notification).not.toBeNull();
    expect(run([failed], 1000, { settings: level('needs-you') }).notification).toBeNull();
    expect(run([failed], 1000, { settings: level('everything') }).notification).not.toBeNull();
    expect(run([asking()], 0, { settings: level('never', { provider: 'codex' }) }).notification).not.toBeNull();
    expect(run([asking()], 0, { settings: level('never', { host: 'devbox' }) }).notification).not.toBeNull();
    expect(run([asking()], 0, { settings: level('never', { host: 'local' }) }).notification).toBeNull();
  });

  it('a review state after a finish: once the turn has ended, and once per version', () => {
    const rule: AutomationRule = { id: 'review-docs', version: 1, when: { folder: '/home/me/work/noisy/**', finished: true }, set: 'needs-review' };
    expect(run([asking()], 0, { settings: withRules([rule]) }).ruleApplications).toEqual([]);
    const done = session({
      cwd: '/home/me/work/noisy/api',
      signal: { kind: 'turn-end', at: at(min(1)), failed: false, detail: null },
      turn: { startedAt: T0, endedAt: at(min(1)), durationMs: null },
    });
    const evaluation = run([done], min(1) + 1000, { settings: withRules([rule]) });
    expect(evaluation.snapshot.sessions[0]?.review).toMatchObject({ state: 'needs-review', by: 'rule:review-docs@1' });
    expect(run([done], min(2), { settings: withRules([rule]), facts: { ruleLedger: evaluation.ruleApplications } }).ruleApplications).toEqual([]);
    expect(
      run([done], min(2), { settings: withRules([{ ...rule, version: 2 }]), facts: { ruleLedger: evaluation.ruleApplications } }).ruleApplications,
    ).toHaveLength(1);
  });
});
