// R1–R8: the honesty rules, each at the edges of its timings.
import { describe, expect, it } from 'vitest';
import { DEFAULT_TIMINGS } from '../../src/engine';
import { at, child, min, registry, rowOf, sec, session, tool, toolCall, T0 } from './build';

const grace = DEFAULT_TIMINGS.toolPendingGrace;
const stale = DEFAULT_TIMINGS.staleAfter;

describe('honesty rules', () => {
  it('R1 a quiet session is never awaiting approval, however long the silence', () => {
    const quiet = session({ signal: { kind: 'assistant-text', at: T0, stop: 'end' } });
    for (const later of [sec(1), min(10), min(29), min(31), min(60 * 23)]) {
      const row = rowOf(quiet, later);
      expect(row.observed.state).not.toBe('awaiting-approval');
      expect(row.observed.state).toBe('idle');
    }
  });

  it('R1 only a recorded request yields awaiting-approval: registry waiting does', () => {
    const row = rowOf(session({ liveness: { kind: 'alive', pid: 42 }, direct: [registry('waiting', 0, 'permission prompt')] }), sec(5));
    expect(row.observed).toMatchObject({ state: 'awaiting-approval', reason: 'approval-requested', confidence: 'direct' });
  });

  it('R1 an ambiguous pending tool in a child makes it working, never waiting', () => {
    const row = rowOf(
      session({
        signal: { kind: 'turn-end', at: T0, failed: false, detail: null },
        children: [child({ signal: toolCall(0, [tool('Bash')]), lastAt: T0 })],
      }),
      min(5),
    );
    expect(row.children.liveness).toBe('working');
    expect(row.observed.state).toBe('running-subagents');
  });

  it('R2 evidence time is the record time: an old record with no newer one reads old', () => {
    // The session's record is 31 min old; nothing else (no mtime) may make it fresh.
    const row = rowOf(session({ signal: { kind: 'prompt', at: T0 } }), min(31));
    expect(row.observed.reason).toBe('stale-evidence');
    expect(row.lastActivityAt).toBe(new Date(T0).toISOString());
  });

  it.each([
    ['just before the grace ends', grace - 1, 'running', 'tool-running'],
    ['exactly at the grace', grace, 'unknown', 'tool-pending'],
    ['long after', min(5), 'unknown', 'tool-pending'],
  ])('R3 a pending generic tool %s', (_label, now, state, reason) => {
    const row = rowOf(session({ signal: toolCall(0, [tool('Bash')]) }), now);
    expect(row.observed).toMatchObject({ state, reason, detail: 'Bash: something' });
  });

  it('R3 the ambiguous row says it cannot tell', () => {
    const row = rowOf(session({ signal: toolCall(0, [tool('Bash')]) }), min(1));
    expect(row.workflow).toBe('needs-input');
    expect(row.claim).toMatchObject({ kind: 'needs-you', ambiguous: true });
    expect(row.claim?.detail).toContain('may be waiting');
  });

  it('R3 provider busy with a pending tool is running/tool-pending (direct)', () => {
    const row = rowOf(session({ signal: toolCall(0, [tool('Bash')]), liveness: { kind: 'alive', pid: 7 }, direct: [registry('busy', 1000)] }), min(2));
    expect(row.observed).toMatchObject({ state: 'running', reason: 'tool-pending', confidence: 'direct' });
    expect(row.workflow).toBe('working');
  });

  it.each([
    ['question', 'awaiting-input', 'question-pending'],
    ['plan', 'awaiting-input', 'plan-approval-pending'],
    ['subagent', 'running', 'tool-running'],
  ] as const)('R3 a pending %s tool is not ambiguous, even inside the grace', (category, state, reason) => {
    for (const now of [0, min(2)]) {
      const row = rowOf(session({ signal: toolCall(0, [tool('X', category)]) }), now);
      expect(row.observed).toMatchObject({ state, reason });
    }
  });

  it('R3 with several pending calls a question wins', () => {
    const row = rowOf(session({ signal: toolCall(0, [tool('Bash'), tool('AskUserQuestion', 'question')]) }), min(1));
    expect(row.observed.reason).toBe('question-pending');
  });

  it.each([
    ['never', false, 'running', 'tool-running'],
    ['on-request', false, 'running', 'tool-running'],
    ['on-request', true, 'unknown', 'tool-pending'],
    ['untrusted', false, 'unknown', 'tool-pending'],
    ['on-failure', false, 'unknown', 'tool-pending'],
  ] as const)('R3 Codex approval_policy %s (escalation %s) after the grace', (policy, escalation, state, reason) => {
    const row = rowOf(session({ provider: 'codex', signal: toolCall(0, [tool('exec_command', 'generic', escalation)], policy) }), min(1));
    expect(row.observed).toMatchObject({ state, reason });
  });

  it.each([
    ['just before staleAfter', stale, 'running', 'turn-open'],
    ['just after staleAfter', stale + 1, 'unknown', 'stale-evidence'],
  ])('R4 inferred running evidence %s', (_label, now, state, reason) => {
    expect(rowOf(session(), now).observed).toMatchObject({ state, reason });
  });

  it('R4 inferred awaiting-input is downgraded when old', () => {
    const row = rowOf(session({ signal: toolCall(0, [tool('AskUserQuestion', 'question')]) }), stale + 1);
    expect(row.observed).toMatchObject({ state: 'unknown', reason: 'stale-evidence' });
  });

  it('R4 a completed turn stays idle however old', () => {
    const row = rowOf(session({ signal: { kind: 'turn-end', at: T0, failed: false, detail: null } }), stale * 10);
    expect(row.observed).toMatchObject({ state: 'idle', reason: 'turn-finished' });
  });

  it('R4 direct evidence from a live process is not downgraded', () => {
    const row = rowOf(session({ liveness: { kind: 'alive', pid: 9 }, direct: [registry('busy', 0)] }), stale * 3);
    expect(row.observed).toMatchObject({ state: 'running', reason: 'provider-busy', confidence: 'direct' });
  });

  it.each([
    ['just before historicalAfter', DEFAULT_TIMINGS.historicalAfter, false],
    ['just after historicalAfter', DEFAULT_TIMINGS.historicalAfter + 1, true],
  ])('R5 a quiet session %s', (_label, now, historical) => {
    const row = rowOf(session({ signal: { kind: 'turn-end', at: T0, failed: false, detail: null } }), now);
    expect(row.historical).toBe(historical);
    expect(row.triageRank).toBe(historical ? 13 : 11);
  });

  it('R5 a session the provider reports live is never historical', () => {
    const row = rowOf(session({ liveness: { kind: 'alive', pid: 3 } }), DEFAULT_TIMINGS.historicalAfter * 2);
    expect(row.historical).toBe(false);
  });

  it('R5 historical rows never need input and never count', () => {
    const evaluation = rowOf(session({ signal: toolCall(0, [tool('AskUserQuestion', 'question')]) }), DEFAULT_TIMINGS.historicalAfter + 1);
    expect(evaluation.workflow).not.toBe('needs-input');
    expect(evaluation.claim).toBeNull();
  });

  it('R6 an unrecognised registry status is unknown and names the value', () => {
    const row = rowOf(session({ liveness: { kind: 'alive', pid: 1 }, direct: [registry('pondering', 0)] }), sec(1));
    expect(row.observed).toMatchObject({ state: 'unknown', reason: 'unrecognized-status', confidence: 'direct' });
    expect(row.observed.detail).toContain('pondering');
  });

  it('R7 a reused pid (process start time differs) ends the session', () => {
    const row = rowOf(
      session({ liveness: { kind: 'dead', source: 'claude.session-registry', pid: 5, at: at(sec(10)), why: 'pid-reused' }, direct: [registry('busy', 0)] }),
      sec(20),
    );
    expect(row.observed).toMatchObject({ state: 'ended', reason: 'process-gone', confidence: 'inferred' });
  });

  it('R7 a registry status from a dead process is not believed', () => {
    const row = rowOf(
      session({
        liveness: { kind: 'dead', source: 'claude.session-registry', pid: 5, at: at(sec(10)), why: 'no-process' },
        direct: [registry('waiting', 0, 'permission prompt')],
      }),
      sec(20),
    );
    expect(row.observed.state).toBe('ended');
    expect(row.workflow).toBe('unreviewed');
  });

  it('R8 direct beats inferred', () => {
    const row = rowOf(session({ signal: { kind: 'prompt', at: at(sec(5)) }, liveness: { kind: 'alive', pid: 2 }, direct: [registry('idle', 0)] }), sec(6));
    expect(row.observed).toMatchObject({ state: 'idle', confidence: 'direct' });
  });

  it.each([
    ['a tool result', { kind: 'tool-result' as const }],
    ['an interrupt marker', { kind: 'interrupted' as const }],
    ['a new prompt', { kind: 'prompt' as const }],
  ])('R8 a newer transcript record (%s) clears an older direct waiting', (_label, record) => {
    const row = rowOf(
      session({ signal: { ...record, at: at(sec(10)) }, liveness: { kind: 'alive', pid: 2 }, direct: [registry('waiting', 0, 'permission prompt')] }),
      sec(11),
    );
    expect(row.observed.state).not.toBe('awaiting-approval');
    expect(row.observed.confidence).toBe('inferred');
  });

  it('R8 an older answering record does not clear a newer direct waiting', () => {
    const row = rowOf(
      session({ signal: { kind: 'tool-result', at: T0 }, liveness: { kind: 'alive', pid: 2 }, direct: [registry('waiting', sec(10), 'permission prompt')] }),
      sec(11),
    );
    expect(row.observed.state).toBe('awaiting-approval');
  });

  it('R8 an answer that later records followed still clears an older direct waiting', () => {
    const evidence = {
      signal: { kind: 'progress' as const, at: at(sec(12)) },
      liveness: { kind: 'alive' as const, pid: 2 },
      direct: [registry('waiting', 0, 'permission prompt')],
    };
    expect(rowOf(session({ ...evidence, answeredAt: at(sec(10)) }), sec(13)).observed).toMatchObject({ state: 'running', confidence: 'inferred' });
    // Without a newer answer the waiting stands, whatever came later.
    expect(rowOf(session(evidence), sec(13)).observed.state).toBe('awaiting-approval');
    expect(rowOf(session({ ...evidence, answeredAt: T0 }), sec(13)).observed.state).toBe('awaiting-approval');
  });

  it('R8 among direct evidence the newer wins', () => {
    const row = rowOf(
      session({
        liveness: { kind: 'alive', pid: 2 },
        direct: [registry('busy', sec(1)), { kind: 'hook', source: 'claude.hook', at: at(sec(5)), event: 'permission-request', detail: 'Bash: ls' }],
      }),
      sec(6),
    );
    expect(row.observed).toMatchObject({ state: 'awaiting-approval', source: 'claude.hook' });
  });
});

describe('R4 and direct evidence', () => {
  it('R4 a hook request from a session with no live process ages like inferred evidence', () => {
    const hook = { kind: 'hook' as const, source: 'codex.hook', at: T0, event: 'permission-request' as const, detail: 'Bash: x' };
    const young = rowOf(session({ provider: 'codex', direct: [hook] }), stale);
    expect(young.observed).toMatchObject({ state: 'awaiting-approval', confidence: 'direct' });
    const old = rowOf(session({ provider: 'codex', direct: [hook] }), stale + 1);
    expect(old.observed).toMatchObject({ state: 'unknown', reason: 'stale-evidence' });
  });

  it('R4 the same request from a process the registry reports alive does not age', () => {
    const hook = { kind: 'hook' as const, source: 'claude.hook', at: T0, event: 'permission-request' as const, detail: 'Bash: x' };
    expect(rowOf(session({ direct: [hook], liveness: { kind: 'alive', pid: 1 } }), stale * 4).observed.state).toBe('awaiting-approval');
  });

  it('a time no date can hold is clamped, never thrown on', () => {
    const row = rowOf(
      session({
        liveness: { kind: 'alive', pid: 1 },
        direct: [{ kind: 'registry-status', source: 'claude.session-registry', at: -1e17, status: 'busy', waitingFor: null }],
      }),
      sec(1),
    );
    expect(row.observed.at).toMatch(/^-?\d/);
  });
});
