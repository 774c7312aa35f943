// Reads a transcript signal as an observation (docs/providers.md, R3, R4). Same rules for a
// lead and for a child: one interpretation, so the fold cannot diverge between them (R13).
import type { PendingTool, TranscriptSignal } from './evidence';
import type { Timings } from './timings';
import { ASSISTANT_TEXT_SETTLE_MS } from './timings';
import type { Observation } from './observation';
import { isLiveState, observe } from './observation';

const QUESTION_FIRST: Record<PendingTool['category'], number> = { question: 0, plan: 1, generic: 2, subagent: 3 };

/** With several pending calls, a question wins, then a plan, then a call that may wait (§11). */
export function decisivePending(pending: readonly PendingTool[]): PendingTool | null {
  let best: PendingTool | null = null;
  for (const tool of pending) {
    if (best === null || QUESTION_FIRST[tool.category] < QUESTION_FIRST[best.category]) best = tool;
  }
  return best;
}

/** R3: Codex cannot be waiting for approval under `never`, nor under `on-request` without escalation. */
function cannotWaitForApproval(tool: PendingTool, approvalPolicy: string | null): boolean {
  if (approvalPolicy === 'never') return true;
  return approvalPolicy === 'on-request' && !tool.escalation;
}

export function readSignal(signal: TranscriptSignal, source: string, now: number, timings: Timings): Observation {
  switch (signal.kind) {
    case 'prompt':
    case 'tool-result':
    case 'progress':
      return observe('running', 'turn-open', signal.at, source, 'inferred', null, '§11 turn open');
    case 'tool-call':
      return readToolCall(signal, source, now, timings);
    case 'assistant-text': {
      if (signal.stop === 'end') return observe('idle', 'turn-finished', signal.at, source, 'inferred', null, '§11 assistant text ended the turn');
      if (signal.stop === 'tool-use') return observe('running', 'turn-open', signal.at, source, 'inferred', null, '§11 assistant text before a tool call');
      const settled = now - signal.at >= ASSISTANT_TEXT_SETTLE_MS;
      return settled
        ? observe('idle', 'turn-finished', signal.at, source, 'inferred', null, '§11 assistant text without stop reason, settled')
        : observe('running', 'turn-open', signal.at, source, 'inferred', null, '§11 assistant text without stop reason, still fresh');
    }
    case 'turn-end':
      return signal.failed
        ? observe('error', 'api-error', signal.at, source, 'inferred', signal.detail, '§11 turn ended on an API error')
        : observe('idle', 'turn-finished', signal.at, source, 'inferred', null, '§11 turn ended');
    case 'interrupted':
      return observe('idle', 'interrupted', signal.at, source, 'inferred', 'interrupted by the user', '§11 interrupt marker');
    case 'api-error':
      return observe('error', 'api-error', signal.at, source, 'inferred', signal.detail, '§11 API error');
    case 'usage-limit':
      return {
        ...observe('limited', 'usage-limit', signal.at, source, 'inferred', signal.detail, 'R80 the agent ended the turn on a usage limit'),
        resetsAt: signal.resetsAt,
      };
  }
}

function readToolCall(signal: Extract<TranscriptSignal, { kind: 'tool-call' }>, source: string, now: number, timings: Timings): Observation {
  const tool = decisivePending(signal.pending);
  if (tool === null) return observe('running', 'turn-open', signal.at, source, 'inferred', null, '§11 tool calls all answered');
  switch (tool.category) {
    case 'question':
      return observe('awaiting-input', 'question-pending', signal.at, source, 'inferred', tool.detail, 'R3 question tool pending');
    case 'plan':
      return observe('awaiting-input', 'plan-approval-pending', signal.at, source, 'inferred', tool.detail, 'R3 plan approval pending');
    case 'subagent':
      return observe('running', 'tool-running', signal.at, source, 'inferred', tool.detail, 'R3 subagent launch pending');
    case 'generic':
      if (cannotWaitForApproval(tool, signal.approvalPolicy)) {
        return observe('running', 'tool-running', signal.at, source, 'inferred', tool.detail, `R3 approval policy ${signal.approvalPolicy ?? ''} cannot wait`);
      }
      if (now - signal.at < timings.toolPendingGrace) {
        return observe('running', 'tool-running', signal.at, source, 'inferred', tool.detail, 'R3 fresh tool call (grace)');
      }
      return observe('unknown', 'tool-pending', signal.at, source, 'inferred', tool.detail, 'R3 tool call pending, no direct evidence');
  }
}

/**
 * R4: inferred live evidence older than staleAfter says nothing about now; direct evidence too,
 * unless it comes from a process known to be alive (`includeDirect` says it does not).
 */
export function downgradeStale(observation: Observation, now: number, timings: Timings, includeDirect = false): Observation {
  if (observation.confidence === 'direct' && !includeDirect) return observation;
  if (!isLiveState(observation.state)) return observation;
  if (now - observation.at <= timings.staleAfter) return observation;
  return { ...observation, state: 'unknown', reason: 'stale-evidence', rule: `R4 ${observation.reason} evidence older than staleAfter` };
}
