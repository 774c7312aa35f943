// Triage order, the attention count and "next" (R31–R33).
import type { Claim } from './claims';
import type { Level, ReviewState, Workflow } from './vocabulary';

export interface Rankable {
  key: string;
  rank: number;
  /** The claim's or review's start, for ranks 1–6 (longest waiting first). */
  waitingSince: number | null;
  lastActivityAt: number | null;
  muted: boolean;
}

/** R31: the rank of one row, first match wins. */
export function triageRank(
  claim: Claim | null,
  review: ReviewState,
  workflow: Workflow,
  historical: boolean,
): number {
  if (historical) return 11;
  if (claim?.kind === 'needs-you') return 1;
  if (claim?.kind === 'failed') return 2;
  if (claim?.kind === 'ready-for-review') return 3;
  if (review === 'flagged') return 4;
  if (review === 'needs-review') return 5;
  if (claim?.kind === 'finished') return 6;
  if (workflow === 'working') return 7;
  if (workflow === 'unknown') return 8;
  if (review === 'reviewed' || review === 'complete' || review === 'outdated') return 10;
  // Idle unreviewed rows, and settled rows whose claim a visit cleared (docs/status-model.md).
  return 9;
}

const ascending = (a: number | null, b: number | null): number => (a ?? Infinity) - (b ?? Infinity);
const descending = (a: number | null, b: number | null): number => (b ?? -Infinity) - (a ?? -Infinity);

/** A total, stable order: muted last, rank, then age or recency, then the key. */
export function compareTriage(a: Rankable, b: Rankable, ambiguity: (row: Rankable) => boolean): number {
  if (a.muted !== b.muted) return a.muted ? 1 : -1;
  if (a.rank !== b.rank) return a.rank - b.rank;
  if (a.rank === 1 && ambiguity(a) !== ambiguity(b)) return ambiguity(a) ? 1 : -1;
  const within = a.rank <= 6 ? ascending(a.waitingSince, b.waitingSince) : descending(a.lastActivityAt, b.lastActivityAt);
  if (within !== 0 && !Number.isNaN(within)) return within;
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

export interface Countable {
  rank: number;
  muted: boolean;
  historical: boolean;
  workflow: Workflow;
}

/** R32: attention = unmuted, non-historical rows of ranks 1–5. */
export function isCounted(row: Countable): boolean {
  return !row.muted && !row.historical && row.rank >= 1 && row.rank <= 5;
}

export function attentionOf(rows: readonly Countable[]): { count: number; level: Level } {
  const counted = rows.filter(isCounted);
  if (counted.some((row) => row.rank === 1)) return { count: counted.length, level: 'needs-you' };
  if (counted.length > 0) return { count: counted.length, level: 'review' };
  const working = rows.some((row) => !row.muted && !row.historical && row.workflow === 'working');
  return { count: 0, level: working ? 'working' : 'none' };
}
