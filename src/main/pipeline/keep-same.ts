// A source may rebuild every session's evidence when one file changed (Claude's assemble does).
// Evidence equal to last time's is swapped for last time's object: the engine reuses a row only for
// the very same object, so an append re-derives one row instead of thousands (issue 14's latency).
import type { SessionEvidence } from '../../engine';
import { plainEqual, sessionKey } from '../../engine';

export class SameEvidence {
  private before = new Map<string, SessionEvidence>();

  /** `next` with every session equal to its previous evidence replaced by that previous object. */
  keep(next: readonly SessionEvidence[]): SessionEvidence[] {
    const now = new Map<string, SessionEvidence>();
    const kept = next.map((item) => {
      const key = sessionKey(item.provider, item.sessionId);
      const old = this.before.get(key);
      const chosen = old !== undefined && plainEqual(old, item) ? old : item;
      now.set(key, chosen);
      return chosen;
    });
    this.before = now;
    return kept;
  }
}
