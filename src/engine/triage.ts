// Triage order, bands, the attention count and "next" (R31–R33). What a rank means is decided
// here once: readers see a row's band and the snapshot's counts, never rank numbers.
import type { Claim } from './claims';
import type { Band, Level, ReviewState, Tone, Workflow } from './vocabulary';
import { BANDS } from './vocabulary';

export interface Rankable {
  key: string;
  rank: number;
  /** The claim's or review's start, for ranks 1–6 (longest waiting first). */
  waitingSince: number | null;
  lastActivityAt: number | null;
  muted: boolean;
}

/** R31: the band of one row, first match wins. */
export function triageBand(claim: Claim | null, review: ReviewState, workflow: Workflow, historical: boolean): Band {
  if (historical) return 'historical';
  if (claim?.kind === 'needs-you') return 'needs-you';
  if (claim?.kind === 'failed') return 'failed';
  if (claim?.kind === 'limit-reset') return 'limit-reset';
  if (claim?.kind === 'limited') return 'limited';
  if (claim?.kind === 'ready-for-review') return 'ready-for-review';
  if (review === 'flagged') return 'flagged';
  if (review === 'needs-review') return 'needs-review';
  if (claim?.kind === 'finished') return 'finished';
  if (workflow === 'working') return 'working';
  if (workflow === 'unknown') return 'unknown';
  if (review === 'reviewed' || review === 'complete' || review === 'outdated') return 'done';
  // Idle unreviewed rows, and settled rows whose claim a visit cleared (docs/status-model.md).
  return 'idle';
}

/** R31's rank (1–11): the band's place in triage order, as `status --json` publishes it. */
export function rankOf(band: Band): number {
  return BANDS.indexOf(band) + 1;
}

/** The colour meaning of a band; `working` is told by the workflow, the rest by the band. */
export function toneOf(band: Band, workflow: Workflow): Tone {
  switch (band) {
    case 'needs-you':
      return 'needs-you';
    case 'failed':
    case 'limit-reset': // "can go on": counted like ready-for-review (R81)
    case 'ready-for-review':
    case 'flagged':
    case 'needs-review':
      return 'review';
    case 'limited': // nothing to do until the reset: shown, never counted (R81)
    case 'finished':
    case 'working':
    case 'unknown':
    case 'idle':
    case 'done':
    case 'historical':
      return workflow === 'working' ? 'working' : 'neutral';
  }
}

/** Bands whose rows wait for ages (longest first); the rest sort by recency. */
function waitsByAge(rank: number): boolean {
  return rank <= rankOf('finished');
}

const ascending = (a: number | null, b: number | null): number => (a ?? Infinity) - (b ?? Infinity);
const descending = (a: number | null, b: number | null): number => (b ?? -Infinity) - (a ?? -Infinity);

/** A total, stable order: muted last, rank, then age or recency, then the key. */
export function compareTriage(a: Rankable, b: Rankable, ambiguity: (row: Rankable) => boolean): number {
  if (a.muted !== b.muted) return a.muted ? 1 : -1;
  if (a.rank !== b.rank) return a.rank - b.rank;
  if (a.rank === rankOf('needs-you') && ambiguity(a) !== ambiguity(b)) return ambiguity(a) ? 1 : -1;
  const within = waitsByAge(a.rank) ? ascending(a.waitingSince, b.waitingSince) : descending(a.lastActivityAt, b.lastActivityAt);
  if (within !== 0 && !Number.isNaN(within)) return within;
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

export interface Countable {
  band: Band;
  muted: boolean;
  historical: boolean;
  workflow: Workflow;
}

/** R32: attention = unmuted, non-historical rows in the needs-you and review bands (ranks 1–5). */
export function isCounted(row: Countable): boolean {
  if (row.muted || row.historical) return false;
  const tone = toneOf(row.band, row.workflow);
  return tone === 'needs-you' || tone === 'review';
}

/** What a reader shows of the whole snapshot: the count and level (R32), and the counts per class. */
export interface AttentionSummary {
  count: number;
  level: Level;
  /** Counted rows that need you (the needs-you band). */
  needYou: number;
  /** Counted rows to review (failed, ready for review, flagged, needs review). */
  review: number;
  /** Unmuted, non-historical rows whose workflow is working. */
  working: number;
  /** Unmuted, non-historical rows a usage limit stopped, before their reset (never counted, R81). */
  limited: number;
}

export function attentionOf(rows: readonly Countable[]): AttentionSummary {
  let needYou = 0;
  let review = 0;
  let working = 0;
  let limited = 0;
  for (const row of rows) {
    if (row.muted || row.historical) continue;
    if (row.workflow === 'working') working += 1;
    if (row.band === 'limited') limited += 1;
    if (!isCounted(row)) continue;
    if (row.band === 'needs-you') needYou += 1;
    else review += 1;
  }
  const count = needYou + review;
  const level: Level = needYou > 0 ? 'needs-you' : count > 0 ? 'review' : working > 0 ? 'working' : 'none';
  return { count, level, needYou, review, working, limited };
}
