// R20–R23: workflow status, attention classes, automation rules, review and new activity.
import { describe, expect, it } from 'vitest';
import type { ReviewState } from '../../src/engine';
import { defaultSettings } from '../../src/engine';
import { KEY, at, min, rowOf, run, sec, session, tool, toolCall, T0 } from './build';

const DAY = 86_400_000;
const idle = session({ signal: { kind: 'turn-end', at: T0, failed: false, detail: null } });
const userReview = (state: ReviewState, offset = 0, lastActivityAt: number | null = T0) => ({
  reviews: { [KEY]: { state, at: at(offset), lastActivityAt } },
});

describe('review state and workflow', () => {
  it.each([
    [
      'awaiting approval',
      session({
        liveness: { kind: 'alive', pid: 1 },
        direct: [{ kind: 'registry-status', source: 'claude.session-registry', at: T0, status: 'waiting', waitingFor: 'permission prompt' }],
      }),
      'needs-input',
    ],
    ['awaiting input', session({ signal: toolCall(0, [tool('AskUserQuestion', 'question')]) }), 'needs-input'],
    ['error', session({ signal: { kind: 'api-error', at: T0, detail: 'x' } }), 'needs-input'],
    ['ambiguous pending tool', session({ signal: toolCall(0, [tool('Bash')]) }), 'needs-input'],
    ['running', session(), 'working'],
    ['idle', idle, 'unreviewed'],
    ['ended', session({ liveness: { kind: 'removed', source: 'claude.session-registry', at: T0 } }), 'unreviewed'],
    ['stale', session({ signal: { kind: 'prompt', at: T0 - min(40) } }), 'unknown'],
  ])('R20 observed %s gives workflow %s', (_label, evidence, workflow) => {
    expect(rowOf(evidence, min(1)).workflow).toBe(workflow);
  });

  it('R20 a complete session shows working during a new turn and complete again after it', () => {
    const facts = userReview('complete', -min(5));
    expect(rowOf(session({ signal: { kind: 'prompt', at: T0 } }), sec(1), { facts }).workflow).toBe('working');
    expect(rowOf(idle, sec(1), { facts }).workflow).toBe('complete');
  });

  it.each(['flagged', 'needs-review', 'reviewed', 'complete', 'outdated'] as const)('R20 review %s shows as the workflow of an idle row', (state) => {
    expect(rowOf(idle, sec(1), { facts: userReview(state) }).workflow).toBe(state);
  });

  it('R20 review never changes observation, observation never changes review', () => {
    const row = rowOf(session({ signal: toolCall(0, [tool('AskUserQuestion', 'question')]) }), sec(1), { facts: userReview('complete') });
    expect(row.observed.state).toBe('awaiting-input');
    expect(row.review.state).toBe('complete');
    expect(row.workflow).toBe('needs-input');
  });

  it.each([
    ['needs-input', session({ signal: toolCall(0, [tool('AskUserQuestion', 'question')]) }), undefined, 1],
    ['flagged', idle, 'flagged', 1],
    ['needs-review', idle, 'needs-review', 1],
    ['reviewed', idle, 'reviewed', 0],
    ['working', session(), undefined, 0],
  ] as const)('R21 %s counts toward attention: %s', (_label, evidence, review, count) => {
    const facts = review === undefined ? {} : userReview(review);
    expect(run([evidence], sec(1), { facts }).snapshot.attention.count).toBe(count);
  });

  it.each([
    ['just before 7 days', 7 * DAY - 1, 0],
    ['at 7 days', 7 * DAY, 1],
  ])('R22 the shipped outdated rule %s', (_label, now, applications) => {
    const evaluation = run([idle], now);
    expect(evaluation.ruleApplications).toHaveLength(applications);
    const row = evaluation.snapshot.sessions[0];
    if (applications === 1) {
      // The evaluation that applies a rule already shows its effect.
      expect(row?.review).toMatchObject({ state: 'outdated', by: 'rule:outdated-after-7d@1' });
    } else {
      expect(row?.review.state).toBe('unreviewed');
    }
  });

  it('R22 a rule applies at most once per (session, id, version)', () => {
    const ledger = [{ key: KEY, ruleId: 'outdated-after-7d', version: 1, set: 'outdated' as const, at: at(7 * DAY), lastActivityAt: T0 }];
    expect(run([idle], 9 * DAY, { facts: { ruleLedger: ledger } }).ruleApplications).toHaveLength(0);
  });

  it('R22 a later user edit stands over the rule', () => {
    const ledger = [{ key: KEY, ruleId: 'outdated-after-7d', version: 1, set: 'outdated' as const, at: at(7 * DAY), lastActivityAt: T0 }];
    const row = rowOf(idle, 9 * DAY, { facts: { ruleLedger: ledger, ...userReview('reviewed', 8 * DAY) } });
    expect(row.review).toMatchObject({ state: 'reviewed', by: 'user' });
  });

  it('R22 a new version of a rule applies once more', () => {
    const settings = defaultSettings();
    settings.rules = [{ id: 'outdated-after-7d', version: 2, when: { inactiveFor: '7d' }, set: 'outdated' }];
    const ledger = [{ key: KEY, ruleId: 'outdated-after-7d', version: 1, set: 'outdated' as const, at: at(7 * DAY), lastActivityAt: T0 }];
    const evaluation = run([idle], 9 * DAY, { facts: { ruleLedger: ledger, ...userReview('reviewed', 8 * DAY) }, settings });
    expect(evaluation.ruleApplications).toEqual([expect.objectContaining({ ruleId: 'outdated-after-7d', version: 2 })]);
    expect(evaluation.snapshot.sessions[0]?.review.by).toBe('rule:outdated-after-7d@2');
  });

  it('R22 a session whose last activity is unknown never matches a time condition', () => {
    const unknown = session({ signal: null, turn: null, lastRecordAt: null });
    expect(run([unknown], 30 * DAY).ruleApplications).toHaveLength(0);
  });

  it('R23 reviewing records lastActivityAt; newer activity sets newActivitySince', () => {
    const facts = userReview('reviewed', sec(10), T0);
    expect(rowOf(idle, sec(20), { facts }).review.newActivitySince).toBe(false);
    const later = session({ signal: { kind: 'turn-end', at: at(sec(30)), failed: false, detail: null } });
    expect(rowOf(later, sec(40), { facts }).review.newActivitySince).toBe(true);
  });
});
