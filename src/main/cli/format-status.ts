// The human `status` table: who needs you, and why, one session per line.
import type { Band, Row, Snapshot } from '../../engine';
import { formatDuration, projectName } from '../../engine';
import { PROVIDERS } from '../../providers';

/** One mark per band, so a row's place in triage reads at a glance. */
const MARKS: Record<Band, string> = {
  'needs-you': '●',
  failed: '✕',
  'ready-for-review': '◆',
  flagged: '⚑',
  'needs-review': '◐',
  finished: '✓',
  working: '▶',
  unknown: '?',
  idle: '·',
  done: '·',
  historical: '·',
};

/** The provider column fits the longest id in the registry. */
const PROVIDER_WIDTH = Math.max(...PROVIDERS.map((provider) => provider.id.length)) + 1;

/** "2 need you · 1 to review · 3 working": the engine's counts, as the tray's tooltip words them. */
export function attentionLine(snapshot: Snapshot): string {
  const { needYou, review, working } = snapshot.attention;
  return [`${needYou} need${needYou === 1 ? 's' : ''} you`, `${review} to review`, `${working} working`].join(' · ');
}

/** What the row is doing, in words: "awaiting approval — Bash: npm publish". */
export function stateText(row: Row): string {
  const claim = row.claim;
  const base = row.observed.state.replace(/-/g, ' ');
  const detail = claim?.detail ?? row.observed.detail;
  const claimWord = claim === null ? '' : claim.kind === 'needs-you' ? '' : ` [${claim.kind}]`;
  return `${base}${claimWord}${detail === null ? '' : ` — ${detail}`}`;
}

export function age(row: Row, now: number): string {
  if (row.lastActivityAt === null) return '—';
  return formatDuration(now - Date.parse(row.lastActivityAt));
}

function pad(text: string, width: number): string {
  return text.length >= width ? `${text.slice(0, width - 1)}…` : text.padEnd(width);
}

/** The table, one session per line (then its title); printed through terminal-text.ts. */
export function formatStatus(snapshot: Snapshot, now: number): string[] {
  const lines = [`Lookout · ${attentionLine(snapshot)}`];
  if (snapshot.sessions.length === 0) lines.push(`No sessions found. (${PROVIDERS.map((provider) => provider.root.env).join(' / ')} set the folders to read.)`);
  for (const row of snapshot.sessions) {
    const where = `${projectName(row.cwd) ?? '?'}${row.branch === null ? '' : ` · ${row.branch}`}`;
    const flags = [row.muted !== null ? 'muted' : '', row.historical ? 'historical' : '', row.observed.confidence].filter((flag) => flag !== '').join(', ');
    lines.push(
      `${MARKS[row.band]} ${pad(row.provider, PROVIDER_WIDTH)} ${pad(row.sessionId.slice(0, 8), 8)} ${pad(where, 28)} ${pad(stateText(row), 60)} ${pad(age(row, now), 8)} ${flags}`,
    );
    if (row.title !== null) lines.push(`    ${pad(row.title, 100)}`.trimEnd());
  }
  return lines;
}
