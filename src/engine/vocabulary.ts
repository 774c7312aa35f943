// The closed vocabularies of the status model (docs/status-model.md §1–§4). Each is a const tuple so
// that schemas, switches and docs all read the same list.

/**
 * A provider's id, as its descriptor in the provider registry names it (src/providers/index.ts).
 * The engine treats every provider alike (R13), so it never lists them.
 */
export type Provider = string;

export const STATES = ['running', 'running-subagents', 'awaiting-approval', 'awaiting-input', 'idle', 'ended', 'unknown', 'error', 'limited'] as const;
export type State = (typeof STATES)[number];

export const REASONS = [
  'turn-open',
  'tool-running',
  'tool-pending',
  'approval-requested',
  'input-requested',
  'question-pending',
  'plan-approval-pending',
  'turn-finished',
  'interrupted',
  'api-error',
  'provider-busy',
  'provider-idle',
  'provider-waiting',
  'unrecognized-status',
  'process-gone',
  'registry-removed',
  'session-end-hook',
  'stale-evidence',
  'child-waiting',
  'child-working',
  'no-evidence',
  'host-unreachable',
  'answered',
  'usage-limit',
] as const;
export type Reason = (typeof REASONS)[number];

export const CONFIDENCES = ['direct', 'inferred', 'unknown'] as const;
export type Confidence = (typeof CONFIDENCES)[number];

export const REVIEW_STATES = ['unreviewed', 'needs-review', 'reviewed', 'complete', 'flagged', 'outdated'] as const;
export type ReviewState = (typeof REVIEW_STATES)[number];

export const WORKFLOWS = ['needs-input', 'limited', 'working', 'flagged', 'needs-review', 'reviewed', 'complete', 'outdated', 'unreviewed', 'unknown'] as const;
export type Workflow = (typeof WORKFLOWS)[number];

export const CLAIM_KINDS = ['needs-you', 'failed', 'limit-reset', 'limited', 'ready-for-review', 'finished'] as const;
export type ClaimKind = (typeof CLAIM_KINDS)[number];

export const LEVELS = ['needs-you', 'review', 'working', 'none'] as const;
export type Level = (typeof LEVELS)[number];

/**
 * The triage bands, in R31's order: each row carries its band, and every reader (the CLI, the
 * tray, the popover) groups, marks and counts by band instead of comparing rank numbers.
 */
export const BANDS = [
  'needs-you',
  'failed',
  'limit-reset',
  'limited',
  'ready-for-review',
  'flagged',
  'needs-review',
  'finished',
  'working',
  'unknown',
  'idle',
  'done',
  'historical',
] as const;
export type Band = (typeof BANDS)[number];

/** The one colour meaning a band carries (popover.md "Colour"): needs you, review, working, neutral. */
const TONES = ['needs-you', 'review', 'working', 'neutral'] as const;
export type Tone = (typeof TONES)[number];

export const CHILD_LIVENESS = ['waiting', 'working', 'monitoring', 'none'] as const;
export type ChildLiveness = (typeof CHILD_LIVENESS)[number];

/** A child's own state (R10); `done` children are dropped from the row. */
export type ChildState = 'working' | 'waiting' | 'blocked' | 'done' | 'unverifiable';

export function isOneOf<T extends string>(list: readonly T[], value: unknown): value is T {
  return typeof value === 'string' && (list as readonly string[]).includes(value);
}
