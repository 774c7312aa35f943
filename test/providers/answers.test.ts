// R8 needs the newest transcript record that answers a request, even when later records follow.
import { describe, expect, it } from 'vitest';
import { ClaudeTranscript } from '../../src/providers/claude/transcript';
import { CodexRollout } from '../../src/providers/codex/rollout';

const at = (seconds: number): string => new Date(Date.UTC(2026, 10, 29, 12, 0, seconds)).toISOString();
const ms = (seconds: number): number => Date.parse(at(seconds));
const line = (seconds: number, type: string, payload: object) => ({ timestamp: at(seconds), type, payload });
const call = (seconds: number, id: string, args: object) =>
  line(seconds, 'response_item', { type: 'function_call', name: 'exec_command', arguments: JSON.stringify(args), call_id: id });

/** A Codex turn opened by a user message at 0 s. */
function codexTurn(): CodexRollout {
  const codex = new CodexRollout();
  codex.apply(line(0, 'event_msg', { type: 'task_started', turn_id: 't' }));
  codex.apply(line(0, 'event_msg', { type: 'user_message', message: 'go' }));
  return codex;
}

describe('the newest answering record (R8)', () => {
  it('Claude: a tool result, an interrupt or a prompt answers; a later tool call or thinking does not', () => {
    const claude = new ClaudeTranscript();
    const base = { sessionId: 's', cwd: '/w' };
    claude.apply({ ...base, type: 'user', timestamp: at(0), message: { role: 'user', content: 'go' } });
    expect(claude.answeredAt).toBe(ms(0));
    claude.apply({
      ...base,
      type: 'assistant',
      timestamp: at(5),
      message: { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'ls' } }], stop_reason: 'tool_use' },
    });
    claude.apply({ ...base, type: 'user', timestamp: at(9), message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: '' }] } });
    claude.apply({ ...base, type: 'assistant', timestamp: at(12), message: { role: 'assistant', content: [{ type: 'thinking', thinking: 'hm' }] } });
    claude.apply({ ...base, type: 'user', timestamp: at(14), isMeta: true, message: { role: 'user', content: 'meta' } });
    expect(claude.answeredAt).toBe(ms(9));
    claude.apply({ ...base, type: 'user', timestamp: at(20), message: { role: 'user', content: [{ type: 'text', text: '[Request interrupted by user]' }] } });
    expect(claude.answeredAt).toBe(ms(20));
  });

  it('Codex: a call output, an interrupt or a user message answers; a later call does not', () => {
    const codex = codexTurn();
    expect(codex.answeredAt).toBe(ms(0));
    codex.apply(call(5, 'c1', { cmd: 'ls' }));
    codex.apply(line(9, 'response_item', { type: 'function_call_output', call_id: 'c1', output: '' }));
    codex.apply(call(12, 'c2', { cmd: 'make' }));
    expect(codex.answeredAt).toBe(ms(9));
    codex.apply(line(20, 'event_msg', { type: 'turn_aborted', turn_id: 't', reason: 'interrupted' }));
    expect(codex.answeredAt).toBe(ms(20));
  });

  it('an output that leaves another call pending answers nothing (that call may be the one asking)', () => {
    const codex = codexTurn();
    codex.apply(call(2, 'c1', { cmd: 'serve' }));
    codex.apply(call(3, 'c2', { cmd: 'rm -rf x', sandbox_permissions: 'require_escalated' }));
    codex.apply(line(9, 'event_msg', { type: 'exec_command_end', call_id: 'c1' }));
    expect(codex.answeredAt).toBe(ms(0));
    codex.apply(line(12, 'response_item', { type: 'function_call_output', call_id: 'c2', output: '' }));
    expect(codex.answeredAt).toBe(ms(12));

    const claude = new ClaudeTranscript();
    const base = { sessionId: 's', cwd: '/w' };
    claude.apply({ ...base, type: 'user', timestamp: at(0), message: { role: 'user', content: 'go' } });
    claude.apply({
      ...base,
      type: 'assistant',
      timestamp: at(2),
      message: {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'q1', name: 'AskUserQuestion', input: {} },
          { type: 'tool_use', id: 'b1', name: 'Bash', input: { command: 'ls' } },
        ],
        stop_reason: 'tool_use',
      },
    });
    claude.apply({ ...base, type: 'user', timestamp: at(9), message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'b1', content: '' }] } });
    expect(claude.answeredAt).toBe(ms(0));
  });
});

describe('Codex turn ends name their turn (§11)', () => {
  it('a late task_complete for an earlier turn does not close the open one', () => {
    const codex = new CodexRollout();
    codex.apply(line(0, 'event_msg', { type: 'task_started', turn_id: 't1' }));
    codex.apply(line(5, 'event_msg', { type: 'task_started', turn_id: 't2' }));
    codex.apply(line(6, 'event_msg', { type: 'task_complete', turn_id: 't1', duration_ms: 6000 }));
    codex.apply(line(7, 'event_msg', { type: 'turn_aborted', turn_id: 't1', reason: 'interrupted' }));
    expect(codex.signal).toEqual({ kind: 'progress', at: ms(5) });
    expect(codex.turn).toMatchObject({ startedAt: ms(5), endedAt: null });
    codex.apply(line(9, 'event_msg', { type: 'task_complete', turn_id: 't2', duration_ms: 4000 }));
    expect(codex.signal).toMatchObject({ kind: 'turn-end', at: ms(9) });
    // An end that names no turn still ends the open one (older builds).
    codex.apply(line(10, 'event_msg', { type: 'task_started', turn_id: 't3' }));
    codex.apply(line(11, 'event_msg', { type: 'task_complete' }));
    expect(codex.signal).toMatchObject({ kind: 'turn-end', at: ms(11) });
  });
});

describe('Claude session identity', () => {
  it('the newest record names the session (a fork begins with its parent’s copied history)', () => {
    const claude = new ClaudeTranscript();
    claude.apply({ sessionId: 'parent', cwd: '/w', type: 'user', timestamp: at(0), message: { role: 'user', content: 'copied' } });
    claude.apply({ sessionId: 'fork', cwd: '/w', type: 'user', timestamp: at(10), message: { role: 'user', content: 'new' } });
    expect(claude.sessionId).toBe('fork');
  });
});
