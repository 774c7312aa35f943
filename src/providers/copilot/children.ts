// A subagent's signal for the fold: a failed child is blocked while its lead turn is open, and is
// over once the lead's turn has ended after the failure (the lead was told; nothing retries it).
import type { TranscriptSignal, TurnEvidence } from '../../engine';
import type { CopilotChild } from './events';

/** The child's newest word: completed, failed (the CLI's error text), or still at work. */
export function childSignal(child: CopilotChild): TranscriptSignal {
  if (child.done) return { kind: 'turn-end', at: child.lastAt, failed: false, detail: null };
  if (child.failed !== null) return { kind: 'turn-end', at: child.failed.at, failed: true, detail: child.failed.error };
  return { kind: 'progress', at: child.lastAt };
}

/** A failed child whose lead turn ended at or after the failure: finished, so removed (§3, R10). */
export function failureTaken(child: CopilotChild, leadTurn: TurnEvidence | null): boolean {
  if (child.done || child.failed === null) return false;
  const endedAt = leadTurn?.endedAt ?? null;
  return endedAt !== null && endedAt >= child.failed.at;
}
