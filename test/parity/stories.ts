// R13: the parity story table. One list of stories, each with one expected row. The engine
// test runs each story's neutral evidence; the provider tests feed each story's provider
// inputs through that provider's parser and must reach the same row (or pin a divergence).
import type { SessionEvidence } from '../../src/engine';
import { at, child, min, sec, session, tool, toolCall, T0 } from '../engine/build';

export interface ExpectedRow {
  state: string;
  reason: string;
  workflow: string;
  liveness: string;
  claim: string | null;
}

export interface Story {
  name: string;
  /** Evaluation time, as an offset from T0. */
  now: number;
  evidence: SessionEvidence;
  expected: ExpectedRow;
}

const turnEnd = (offset: number) => ({ kind: 'turn-end' as const, at: at(offset), failed: false, detail: null });

export const STORIES: Story[] = [
  {
    name: 'main agent working',
    now: sec(5),
    evidence: session({ signal: { kind: 'progress', at: at(sec(4)) } }),
    expected: { state: 'running', reason: 'turn-open', workflow: 'working', liveness: 'none', claim: null },
  },
  {
    name: 'done with a live subagent',
    now: sec(40),
    evidence: session({ signal: turnEnd(sec(20)), children: [child({ signal: { kind: 'progress', at: at(sec(35)) } })] }),
    expected: { state: 'running-subagents', reason: 'child-working', workflow: 'working', liveness: 'working', claim: null },
  },
  {
    name: 'done with only a watcher',
    now: sec(40),
    evidence: session({ signal: turnEnd(sec(20)), children: [child({ role: 'watcher', signal: { kind: 'progress', at: at(sec(35)) } })] }),
    expected: { state: 'running-subagents', reason: 'child-working', workflow: 'working', liveness: 'monitoring', claim: null },
  },
  {
    name: 'blocked on a question with a live subagent',
    now: sec(40),
    evidence: session({
      signal: toolCall(sec(30), [tool('AskUserQuestion', 'question')]),
      children: [child({ signal: { kind: 'progress', at: at(sec(35)) } })],
    }),
    expected: { state: 'awaiting-input', reason: 'question-pending', workflow: 'needs-input', liveness: 'working', claim: 'needs-you' },
  },
  {
    name: 'a child waiting on the user',
    now: sec(40),
    evidence: session({
      signal: toolCall(sec(10), [tool('Task', 'subagent')]),
      children: [child({ signal: toolCall(sec(30), [tool('AskUserQuestion', 'question')]) })],
    }),
    expected: { state: 'awaiting-input', reason: 'child-waiting', workflow: 'needs-input', liveness: 'waiting', claim: 'needs-you' },
  },
  {
    name: 'a failed child is live work, not a request',
    now: sec(40),
    evidence: session({ signal: turnEnd(sec(20)), children: [child({ signal: { kind: 'api-error', at: at(sec(30)), detail: 'overloaded' } })] }),
    expected: { state: 'running-subagents', reason: 'child-working', workflow: 'working', liveness: 'working', claim: null },
  },
  {
    name: 'failed turn',
    now: sec(40),
    evidence: session({ signal: { kind: 'api-error', at: at(sec(30)), detail: 'overloaded' } }),
    expected: { state: 'error', reason: 'api-error', workflow: 'needs-input', liveness: 'none', claim: 'failed' },
  },
  {
    name: 'interrupted turn with a child',
    now: sec(40),
    evidence: session({
      signal: { kind: 'interrupted', at: at(sec(30)) },
      turn: { startedAt: T0, endedAt: at(sec(30)), durationMs: null },
      children: [child({ startedAt: at(sec(5)), signal: { kind: 'progress', at: at(sec(25)) } })],
    }),
    expected: { state: 'idle', reason: 'interrupted', workflow: 'unreviewed', liveness: 'none', claim: null },
  },
  {
    name: 'stale evidence',
    now: min(45),
    evidence: session({ signal: { kind: 'progress', at: at(min(10)) } }),
    expected: { state: 'unknown', reason: 'stale-evidence', workflow: 'unknown', liveness: 'none', claim: null },
  },
  {
    name: 'tool call pending past the grace',
    now: min(2),
    evidence: session({ signal: toolCall(min(1), [tool('Bash')]) }),
    expected: { state: 'unknown', reason: 'tool-pending', workflow: 'needs-input', liveness: 'none', claim: 'needs-you' },
  },
  {
    name: 'fresh tool call',
    now: sec(3),
    evidence: session({ signal: toolCall(sec(1), [tool('Bash')]) }),
    expected: { state: 'running', reason: 'tool-running', workflow: 'working', liveness: 'none', claim: null },
  },
  {
    name: 'long turn finished clean',
    now: min(2),
    evidence: session({ signal: turnEnd(min(1)), turn: { startedAt: T0, endedAt: at(min(1)), durationMs: null }, workingTree: { kind: 'not-a-repo' } }),
    expected: { state: 'idle', reason: 'turn-finished', workflow: 'unreviewed', liveness: 'none', claim: 'finished' },
  },
  {
    name: 'short turn finished',
    now: sec(10),
    evidence: session({ signal: turnEnd(sec(3)), turn: { startedAt: T0, endedAt: at(sec(3)), durationMs: null } }),
    expected: { state: 'idle', reason: 'turn-finished', workflow: 'unreviewed', liveness: 'none', claim: null },
  },
  {
    name: 'no status-bearing record',
    now: sec(10),
    evidence: session({ signal: null, turn: null, lastRecordAt: T0 }),
    expected: { state: 'unknown', reason: 'no-evidence', workflow: 'unknown', liveness: 'none', claim: null },
  },
];
