// How often the runtime looks again, and whether a new evaluation changed what it shows: the
// rescan safety net, the burst that warrants one more look, the snapshot comparison.
import type { Evaluation } from '../../engine';
import { plainEqual } from '../../engine';

/** Whether a snapshot differs: a reused derivation keeps its very row object, so most compare by reference. */
export function changedRows(before: Evaluation, after: Evaluation): boolean {
  const a = before.snapshot;
  const b = after.snapshot;
  if (a.attention.count !== b.attention.count || a.attention.level !== b.attention.level || a.sessions.length !== b.sessions.length) return true;
  // A beat where no row changed hands on the very same rows.
  return (
    a.sessions !== b.sessions &&
    a.sessions.some((row, index) => {
      const other = b.sessions[index];
      // Compared as data, not as JSON: a beat's re-derived rows are mostly equal (issue 27).
      return other !== row && !plainEqual(other, row);
    })
  );
}

/** A full re-read every so often: the safety net for missed events and crashed processes. */
const RESCAN_MS = 30_000;

/**
 * The rescan's interval; LOOKOUT_RESCAN_MS changes it (a diagnostic knob: the burst test turns
 * the safety net off to prove that nothing waits for it).
 */
export function rescanInterval(env: NodeJS.ProcessEnv): number {
  const value = Number(env.LOOKOUT_RESCAN_MS);
  return Number.isInteger(value) && value >= 1000 ? value : RESCAN_MS;
}

/** A batch this large may be a burst the kernel's queue could not hold: everything is looked at once more. */
export const BURST_PATHS = 100;
export const BURST_SETTLE_MS = 500;
