// What a feed sends a Lookout that speaks no protocol 3 (from before usage limits, issue 46): its
// schema knows no `limited` state, band, workflow or claim and would refuse the whole line, and it
// numbers the bands without the two limit ones. So its rows read as they did then (a limit is a
// failed turn, its reset one to look at), ranked as it ranks them, and no usage windows are sent.
import type { Band, Row, Snapshot } from '../../engine';

/** The bands as a Lookout before issue 46 ranked them (R31 without the limit bands). */
const OLDER_BANDS: readonly Band[] = [
  'needs-you',
  'failed',
  'ready-for-review',
  'flagged',
  'needs-review',
  'finished',
  'working',
  'unknown',
  'idle',
  'done',
  'historical',
];

const older = new WeakMap<Row, Row>();

function olderBand(band: Band): Band {
  switch (band) {
    case 'limited':
      return 'failed';
    case 'limit-reset':
      return 'ready-for-review';
    default:
      return band;
  }
}

/** A row as a Lookout before issue 46 reads it; the same object back for the same row. */
function olderRow(row: Row): Row {
  let kept = older.get(row);
  if (kept !== undefined) return kept;
  const band = olderBand(row.band);
  const claim =
    row.claim === null
      ? null
      : row.claim.kind === 'limited'
        ? { ...row.claim, kind: 'failed' as const, expiresAt: null }
        : row.claim.kind === 'limit-reset'
          ? { ...row.claim, kind: 'ready-for-review' as const }
          : row.claim;
  const observed = row.observed.state === 'limited' ? { ...row.observed, state: 'error' as const, reason: 'api-error' as const } : row.observed;
  kept = { ...row, observed, workflow: row.workflow === 'limited' ? 'needs-input' : row.workflow, claim, band, triageRank: OLDER_BANDS.indexOf(band) + 1 };
  older.set(row, kept);
  return kept;
}

/** The snapshot for a feed of protocol 1 or 2. */
export function forOlderLookout(snapshot: Snapshot): Omit<Snapshot, 'limits'> {
  return { schemaVersion: snapshot.schemaVersion, now: snapshot.now, attention: snapshot.attention, sessions: snapshot.sessions.map(olderRow) };
}
