// A subagent's signal for the fold: a failed child is blocked while a lead turn is open, and is
// over once none is (the CLI hands the failure to the lead; nothing retries the child).
import type { TranscriptSignal, TurnEvidence } from '../../engine';
import type { CopilotChild } from './events';

/** The child's newest word: completed, failed (the CLI's error text), or still at work. */
export function childSignal(child: CopilotChild): TranscriptSignal {
  if (child.done) return { kind: 'turn-end', at: child.lastAt, failed: false, detail: null };
  if (child.failed !== null) return { kind: 'turn-end', at: child.failed.at, failed: true, detail: child.failed.error };
  return { kind: 'progress', at: child.lastAt };
}

/**
 * A failed child once no lead turn is open (ended after the failure, or before it, as a background
 * task's can): finished, so removed (§3, R10). Blocked only while a lead turn is open.
 */
export function failureTaken(child: CopilotChild, leadTurn: TurnEvidence | null): boolean {
  if (child.done || child.failed === null) return false;
  return leadTurn === null || leadTurn.endedAt !== null;
}
