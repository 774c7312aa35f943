// The notified ledger's bounds (R41, issue 25 item 8). This machine's claims and each host's are
// kept apart: a host with thousands of claims evicts only its own oldest entries, never one of
// this machine's (which would be told again after a restart).
import { providerIds } from '../../providers';

/** The newest of this machine's claim ids kept: old claims cannot come back (their times are past). */
const NOTIFIED_KEEP = 5000;
/** The newest of each host's kept: more than the claims a host may notify at once (200). */
const NOTIFIED_HOST_KEEP = 1000;

/** Whose claim an id is: a local key starts with a provider's id, a host's row with the host's name (never a provider's). */
function owner(id: string, providers: ReadonlySet<string>): string | null {
  const head = id.slice(0, Math.max(0, id.indexOf(':')));
  return providers.has(head) ? null : head;
}

/** The ledger with each owner's newest entries only, in their order. */
export function boundLedger<T extends { id: string }>(entries: readonly T[]): T[] {
  if (entries.length <= NOTIFIED_KEEP) return [...entries];
  const providers = new Set(providerIds());
  const counts = new Map<string | null, number>();
  const kept: T[] = [];
  for (let index = entries.length - 1; index >= 0; index -= 1) {
    const entry = entries[index];
    if (entry === undefined) continue;
    const who = owner(entry.id, providers);
    const count = (counts.get(who) ?? 0) + 1;
    counts.set(who, count);
    if (count <= (who === null ? NOTIFIED_KEEP : NOTIFIED_HOST_KEEP)) kept.push(entry);
  }
  return kept.reverse();
}
