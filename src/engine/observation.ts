// An observation (docs/status-model.md §1) with the rule that produced it, kept for `explain`.
import type { Confidence, Reason, State } from './vocabulary';

export interface Observation {
  state: State;
  reason: Reason;
  detail: string | null;
  source: string;
  confidence: Confidence;
  at: number;
  /** Which rule decided, e.g. "R3 tool call pending, no direct evidence". */
  rule: string;
  /** A `limited` observation: when the agent said the limit resets (R80); absent otherwise. */
  resetsAt?: number | null;
}

export function observe(state: State, reason: Reason, at: number, source: string, confidence: Confidence, detail: string | null, rule: string): Observation {
  return { state, reason, detail, source, confidence, at, rule };
}

/** Live states: the ones R4 downgrades when their inferred evidence is old. */
export function isLiveState(state: State): boolean {
  return state === 'running' || state === 'running-subagents' || state === 'awaiting-approval' || state === 'awaiting-input';
}

export function isAsking(state: State): boolean {
  return state === 'awaiting-approval' || state === 'awaiting-input';
}
