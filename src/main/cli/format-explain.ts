// `lookout explain`: the evidence behind one row, and which rule decided.
import type { DerivedSession, Row } from '../../engine';
import { iso } from '../../engine';

const when = (ms: number): string => (Number.isFinite(ms) ? iso(ms) : 'unknown time');

/** The explanation, line by line; printed through terminal-text.ts. */
export function formatExplain(row: Row, derived: DerivedSession): string[] {
  const lines = [
    `${row.key}  ${row.title ?? ''}`.trimEnd(),
    `  folder   ${row.cwd ?? 'unknown'}${row.branch === null ? '' : ` (${row.branch})`}`,
    `  state    ${row.observed.state} / ${row.observed.reason} (${row.observed.confidence}, ${row.observed.source}, ${row.observed.at ?? 'unknown time'})`,
    `  decided  ${derived.observed.rule}`,
    `  workflow ${row.workflow}; review ${row.review.state}${row.review.by === null ? '' : ` by ${row.review.by}`}; band ${row.band} (rank ${row.triageRank})`,
    `  claim    ${row.claim === null ? 'none' : `${row.claim.kind}${row.claim.ambiguous ? ' (ambiguous)' : ''} since ${row.claim.since}${row.claim.detail === null ? '' : ` — ${row.claim.detail}`}`}`,
    'Evidence considered, in the order weighed:',
  ];
  for (const observation of derived.considered) {
    lines.push(`  ${when(observation.at)}  ${observation.source}  ${observation.state}/${observation.reason}  ${observation.confidence}  — ${observation.rule}`);
  }
  if (derived.considered.length === 0) lines.push('  none: no status-bearing record was found');
  lines.push(`Children: ${row.children.liveness} (${row.children.live} live)`);
  for (const child of derived.children) lines.push(`  ${child.name}: ${child.state}${child.request === null ? '' : ` — ${child.request.detail}`} (${when(child.at)})`);
  const liveness = derived.evidence.liveness;
  lines.push(`Liveness: ${liveness.kind}${'pid' in liveness && liveness.pid !== null ? ` (pid ${liveness.pid})` : ''}${liveness.kind === 'dead' ? ` — ${liveness.why}` : ''}`);
  lines.push(`Skipped lines (malformed or oversized): ${derived.evidence.skippedLines}`);
  return lines;
}
