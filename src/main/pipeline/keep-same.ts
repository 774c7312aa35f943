// A source may rebuild every session's evidence when one file changed (Claude's assemble does).
// Evidence equal to last time's is swapped for last time's object: the engine reuses a row only for
// the very same object, so an append re-derives one row instead of thousands (issue 14's latency).
import type { SessionEvidence } from '../../engine';
import { sessionKey } from '../../engine';

/**
 * Equality of plain data (what evidence is: records, arrays, strings, numbers, booleans, null).
 * Not `util.isDeepStrictEqual`: its prototype and key-order checks cost 2 ms per append over
 * 2,000 sessions, which evidence never needs.
 */
export function plainEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let index = 0; index < a.length; index += 1) if (!plainEqual(a[index], b[index])) return false;
    return true;
  }
  // Anything but a plain record (a Map, a Date) is equal only to itself.
  if (Array.isArray(b) || Object.getPrototypeOf(a) !== Object.prototype || Object.getPrototypeOf(b) !== Object.prototype) return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  if (keys.length !== Object.keys(right).length) return false;
  for (const key of keys) if (!Object.hasOwn(right, key) || !plainEqual(left[key], right[key])) return false;
  return true;
}

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
