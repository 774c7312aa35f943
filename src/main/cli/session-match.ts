// Resolves a <session> argument: a full key, a full id, or a unique id prefix of 4+ characters.
import type { Row } from '../../engine';
import { UsageError } from './usage-error';

/** No row answers the query (as opposed to an ambiguous or too short one): another machine's may. */
export class NoSessionMatch extends UsageError {}

export function matchSession(rows: readonly Row[], query: string): Row {
  // A full key is exact. A full id: this machine's session first; the same id on two other
  // machines is ambiguous (a remote row can never take a local session's place).
  const byKey = rows.find((row) => row.key === query);
  if (byKey !== undefined) return byKey;
  const byId = rows.filter((row) => row.sessionId === query);
  const local = byId.find((row) => (row.host ?? null) === null);
  if (local !== undefined) return local;
  if (byId.length > 1)
    throw new UsageError(
      `"${query}" is ambiguous: ${byId
        .slice(0, 6)
        .map((row) => row.key)
        .join(', ')}`,
    );
  const exact = byId[0];
  if (exact !== undefined) return exact;
  const bare = query.includes(':') ? query.slice(query.indexOf(':') + 1) : query;
  const provider = query.includes(':') ? query.slice(0, query.indexOf(':')) : null;
  if (bare.length < 4) throw new UsageError(`session "${query}": give at least 4 characters of its id`);
  const candidates = rows.filter((row) => row.sessionId.startsWith(bare) && (provider === null || row.provider === provider));
  const [only, ...others] = candidates;
  if (only === undefined) throw new NoSessionMatch(`no session matches "${query}"`);
  if (others.length > 0)
    throw new UsageError(
      `"${query}" is ambiguous: ${candidates
        .slice(0, 6)
        .map((row) => row.key)
        .join(', ')}${candidates.length > 6 ? ', …' : ''}`,
    );
  return only;
}
