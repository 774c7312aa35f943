// Resolves a <session> argument: a full key, a full id, or a unique id prefix of 4+ characters.
import type { Row } from '../../engine';
import { UsageError } from './usage-error';

export function matchSession(rows: readonly Row[], query: string): Row {
  const exact = rows.find((row) => row.key === query || row.sessionId === query);
  if (exact !== undefined) return exact;
  const bare = query.includes(':') ? query.slice(query.indexOf(':') + 1) : query;
  const provider = query.includes(':') ? query.slice(0, query.indexOf(':')) : null;
  if (bare.length < 4) throw new UsageError(`session "${query}": give at least 4 characters of its id`);
  const candidates = rows.filter((row) => row.sessionId.startsWith(bare) && (provider === null || row.provider === provider));
  const [only, ...others] = candidates;
  if (only === undefined) throw new UsageError(`no session matches "${query}"`);
  if (others.length > 0) throw new UsageError(`"${query}" is ambiguous: ${candidates.slice(0, 6).map((row) => row.key).join(', ')}${candidates.length > 6 ? ', …' : ''}`);
  return only;
}
