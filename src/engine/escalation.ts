// R61: a muted or snoozed session whose needs-you claim has stood longer than `escalateAfter`
// comes back once: one notification ("still waiting after 30 min"), and it counts again until
// visited or muted anew. Off when `escalateAfter` is 0.
import type { Claim } from './claims';
import { formatDuration } from './duration';
import type { MuteFact, VisitFact } from './facts';

/** The ledger id of a claim's escalation: notified once, apart from the claim's own notification. */
export const STILL_WAITING = '|still-waiting';

/**
 * When the mute gives way (the claim's start plus the threshold), or null: no needs-you claim,
 * escalation off, not due yet, or the user muted or visited the session after it came due.
 */
export function escalatedSince(claim: Claim | null, mute: MuteFact, visit: VisitFact | undefined, now: number, escalateAfter: number): number | null {
  if (claim === null || claim.kind !== 'needs-you' || escalateAfter <= 0) return null;
  const due = claim.since + escalateAfter;
  if (now < due || mute.at >= due || (visit !== undefined && visit.at >= due)) return null;
  return due;
}

/** The escalated claim as rows and notifications tell it: its own ledger id, "still waiting after 30 min" first. */
export function escalatedClaim(claim: Claim, escalateAfter: number): Claim {
  const waiting = `still waiting after ${formatDuration(escalateAfter)}`;
  return { ...claim, id: `${claim.id}${STILL_WAITING}`, detail: claim.detail === null ? waiting : `${waiting} — ${claim.detail}` };
}
