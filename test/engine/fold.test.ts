// R10–R12: children, their liveness summary and the one fold.
import { describe, expect, it } from 'vitest';
import { DEFAULT_TIMINGS } from '../../src/engine';
import { at, child, min, rowOf, sec, session, tool, toolCall, T0 } from './build';

const ended = { kind: 'turn-end' as const, at: T0, failed: false, detail: null };

describe('children and the fold', () => {
  it.each([
    ['a waiting child beats working ones', ['waiting', 'working'], 'waiting'],
    ['a blocked child counts as working', ['blocked'], 'working'],
    ['only a watcher is monitoring', ['watcher'], 'monitoring'],
    ['working beats monitoring', ['watcher', 'working'], 'working'],
    ['an unverifiable child contributes nothing', ['unverifiable'], 'none'],
    ['done children are dropped', ['done'], 'none'],
  ])('R10 %s', (_label, kinds, liveness) => {
    const children = kinds.map((kind, index) => {
      const id = `c${index}`;
      switch (kind) {
        case 'waiting':
          return child({ id, signal: toolCall(sec(10), [tool('AskUserQuestion', 'question')]) });
        case 'working':
          return child({ id, signal: { kind: 'progress', at: at(sec(10)) } });
        case 'blocked':
          return child({ id, signal: { kind: 'api-error', at: at(sec(10)), detail: 'overloaded' } });
        case 'watcher':
          return child({ id, role: 'watcher', signal: { kind: 'progress', at: at(sec(10)) } });
        case 'unverifiable':
          return child({ id, signal: { kind: 'progress', at: T0 - DEFAULT_TIMINGS.staleAfter - 1 }, lastAt: T0 - DEFAULT_TIMINGS.staleAfter - 1 });
        default:
          return child({ id, signal: { kind: 'turn-end', at: at(sec(10)), failed: false, detail: null } });
      }
    });
    const row = rowOf(session({ signal: ended, children }), sec(20));
    expect(row.children.liveness).toBe(liveness);
  });

  it('R10 a child goes unverifiable just after staleAfter, not before', () => {
    const working = child({ signal: { kind: 'progress', at: T0 } });
    const lead = session({ signal: { kind: 'turn-end', at: at(-min(60)), failed: false, detail: null } });
    expect(rowOf({ ...lead, children: [working] }, DEFAULT_TIMINGS.staleAfter).children.liveness).toBe('working');
    expect(rowOf({ ...lead, children: [working] }, DEFAULT_TIMINGS.staleAfter + 1).children.liveness).toBe('none');
  });

  it('R11.1 the lead asking wins over a waiting child', () => {
    const row = rowOf(
      session({
        signal: toolCall(0, [tool('ExitPlanMode', 'plan')]),
        children: [child({ signal: toolCall(0, [tool('AskUserQuestion', 'question')]) })],
      }),
      sec(5),
    );
    expect(row.observed.reason).toBe('plan-approval-pending');
  });

  it('R11.2 a waiting child makes a running lead wait, naming the child', () => {
    const row = rowOf(
      session({
        signal: toolCall(0, [tool('Task', 'subagent')]),
        children: [child({ name: 'Ada', signal: toolCall(sec(2), [tool('AskUserQuestion', 'question')]) })],
      }),
      sec(5),
    );
    expect(row.observed).toMatchObject({ state: 'awaiting-input', reason: 'child-waiting' });
    expect(row.observed.detail).toContain('Ada');
    expect(row.claim?.kind).toBe('needs-you');
  });

  it('R11.2 a child asking for approval makes the row awaiting-approval', () => {
    const row = rowOf(
      session({
        signal: ended,
        children: [child({ signal: { kind: 'progress', at: T0 }, request: { kind: 'approval', at: at(sec(1)), detail: 'Bash: rm' } })],
      }),
      sec(5),
    );
    expect(row.observed).toMatchObject({ state: 'awaiting-approval', reason: 'child-waiting' });
  });

  it('R11.3 a running lead stays running while children work', () => {
    const row = rowOf(session({ signal: { kind: 'progress', at: T0 }, children: [child({ signal: { kind: 'progress', at: T0 } })] }), sec(1));
    expect(row.observed).toMatchObject({ state: 'running', reason: 'turn-open' });
  });

  it('R11.4 an idle lead with a working child is running-subagents', () => {
    const row = rowOf(session({ signal: ended, children: [child({ signal: { kind: 'progress', at: at(sec(30)) } })] }), sec(40));
    expect(row.observed).toMatchObject({ state: 'running-subagents', reason: 'child-working' });
    expect(row.workflow).toBe('working');
  });

  it('R11.4 an idle lead with only a watcher is running-subagents (monitoring)', () => {
    const row = rowOf(session({ signal: ended, children: [child({ role: 'watcher', signal: { kind: 'progress', at: at(sec(30)) } })] }), sec(40));
    expect(row.children.liveness).toBe('monitoring');
    expect(row.observed.state).toBe('running-subagents');
  });

  it('R11.5 a failed lead stays failed even with working children', () => {
    const row = rowOf(
      session({ signal: { kind: 'api-error', at: T0, detail: 'overloaded' }, children: [child({ signal: { kind: 'progress', at: at(sec(1)) } })] }),
      sec(5),
    );
    expect(row.observed.state).toBe('error');
  });

  it('R12 an interrupted lead turn does not keep its own children live', () => {
    const row = rowOf(
      session({
        signal: { kind: 'interrupted', at: at(sec(20)) },
        turn: { startedAt: T0, endedAt: at(sec(20)), durationMs: null },
        children: [child({ startedAt: at(sec(5)), signal: { kind: 'progress', at: at(sec(15)) } })],
      }),
      sec(25),
    );
    expect(row.observed).toMatchObject({ state: 'idle', reason: 'interrupted' });
    expect(row.children.liveness).toBe('none');
  });

  it('R12 children from an earlier turn survive the interrupt', () => {
    const row = rowOf(
      session({
        signal: { kind: 'interrupted', at: at(sec(20)) },
        turn: { startedAt: at(sec(10)), endedAt: at(sec(20)), durationMs: null },
        children: [child({ startedAt: T0, signal: { kind: 'progress', at: at(sec(15)) } })],
      }),
      sec(25),
    );
    expect(row.children.liveness).toBe('working');
    expect(row.observed.state).toBe('running-subagents');
  });

  it('R11 a pending subagent launch counts as one working child until its transcript appears', () => {
    const pending = session({ signal: toolCall(0, [tool('Task', 'subagent')]) });
    expect(rowOf(pending, sec(1)).children).toEqual({ liveness: 'working', live: 1 });
    const withTranscript = { ...pending, children: [child({ signal: { kind: 'progress', at: at(sec(1)) } })] };
    expect(rowOf(withTranscript, sec(2)).children).toEqual({ liveness: 'working', live: 1 });
  });
});

describe('R12 across turns', () => {
  it('R12 children of an interrupted turn stay dropped after the next turn', () => {
    const row = rowOf(
      session({
        signal: { kind: 'turn-end', at: at(sec(40)), failed: false, detail: null },
        turn: { startedAt: at(sec(30)), endedAt: at(sec(40)), durationMs: null },
        interruptedTurns: [{ startedAt: T0, endedAt: at(sec(10)) }],
        children: [child({ startedAt: at(sec(5)), signal: toolCall(sec(8), [tool('Bash')]) })],
      }),
      sec(60),
    );
    expect(row.children.liveness).toBe('none');
    expect(row.observed).toMatchObject({ state: 'idle', reason: 'turn-finished' });
    expect(row.claim?.kind).toBe('finished');
  });
});
