// The human `status` table: who needs you, and why, one session per line.
import type { Band, Row, Snapshot } from '../../engine';
import { formatDuration, projectName, resetWords } from '../../engine';
import { PROVIDERS } from '../../providers';
import { terminalLine } from '../text/terminal-text';
import { cut, fit, textWidth } from '../text/text-width';
import { type TableLayout, WIDE } from './table-layout';

/** One mark per band, so a row's place in triage reads at a glance. */
const MARKS: Record<Band, string> = {
  'needs-you': '●',
  failed: '✕',
  'limit-reset': '↻',
  limited: '◷',
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

/** The provider column fits the longest id in the registry: never cut. */
const PROVIDER_WIDTH = Math.max(...PROVIDERS.map((provider) => provider.id.length));

/** "2 need you · 1 to review · 3 working": the engine's counts, as the tray's tooltip words them. */
function attentionLine(snapshot: Snapshot): string {
  const { needYou, review, working, limited } = snapshot.attention;
  const parts = [`${needYou} need${needYou === 1 ? 's' : ''} you`, `${review} to review`, `${working} working`];
  // R81: stopped by a limit, not counted, but a person wants to know the work is held.
  if (limited > 0) parts.push(`${limited} stopped by a limit`);
  return parts.join(' · ');
}

/** R83: each provider's newest usage windows on one line: "<provider> usage: primary 42% of 5h, resets 15:00". */
function usageLines(snapshot: Snapshot, now: number): string[] {
  return snapshot.limits.map((limit) => {
    const windows = limit.windows.map((window) => {
      const span = window.windowMinutes === null ? '' : ` of ${formatDuration(window.windowMinutes * 60_000)}`;
      const reset = window.resetsAt === null ? '' : `, resets ${resetWords(Date.parse(window.resetsAt), now)}`;
      return `${window.name} ${Math.round(window.usedPercent)}%${span}${reset}`;
    });
    return `${limit.host === null ? '' : `${limit.host}: `}${limit.provider} usage: ${windows.join(' · ')}`;
  });
}

/** A limit's reset in words: "until 15:00 (in 2h 14m)", "reset at 15:00". */
function limitWords(row: Row, now: number): string | null {
  if (row.resetsAt === null) return null;
  const reset = Date.parse(row.resetsAt);
  const clock = resetWords(reset, now);
  return reset > now ? `until ${clock} (in ${formatDuration(reset - now)})` : `reset at ${clock}, can go on`;
}

/** What the row is doing, in words: "awaiting approval — Bash: npm publish". */
function stateText(row: Row, now: number): string {
  const claim = row.claim;
  if (row.observed.state === 'limited') {
    const when = limitWords(row, now);
    return `stopped by a usage limit${when === null ? '' : ` ${when}`}${row.observed.detail === null ? '' : ` — ${row.observed.detail}`}`;
  }
  const base = row.observed.state.replace(/-/g, ' ');
  const detail = claim?.detail ?? row.observed.detail;
  const claimWord = claim === null ? '' : claim.kind === 'needs-you' ? '' : ` [${claim.kind}]`;
  return `${base}${claimWord}${detail === null ? '' : ` — ${detail}`}`;
}

function age(row: Row, now: number): string {
  if (row.lastActivityAt === null) return '—';
  return formatDuration(now - Date.parse(row.lastActivityAt));
}

/** How the table is laid out: `width` in columns (null: nothing is cut), colour marks or not. */
/** SGR colours of the marks, as the popover colours its bands (docs/popover.md). */
const COLORS: Record<Band, string> = {
  'needs-you': '31',
  failed: '31',
  'limit-reset': '33',
  limited: '34',
  'ready-for-review': '33',
  flagged: '33',
  'needs-review': '33',
  finished: '32',
  working: '36',
  unknown: '35',
  idle: '2',
  done: '2',
  historical: '2',
};

const GAP = '  ';

/**
 * The table, one session per line then its title and flags. Every piece read from a file is made
 * safe (terminal-text.ts) before it is measured and cut, so the lines need no further escaping
 * and may carry the marks' colours.
 */
export function formatStatus(snapshot: Snapshot, now: number, layout: TableLayout = WIDE): string[] {
  const { width } = layout;
  const header = `Lookout · ${attentionLine(snapshot)}`;
  const lines = [width === null ? header : cut(header, width)];
  for (const usage of usageLines(snapshot, now)) lines.push(width === null ? terminalLine(usage) : cut(terminalLine(usage), width));
  if (snapshot.sessions.length === 0) lines.push(`No sessions found. (${PROVIDERS.map((provider) => provider.root.env).join(' / ')} set the folders to read.)`);
  const rows = snapshot.sessions.map((row) => ({
    row,
    age: age(row, now),
    where: terminalLine(`${row.host === null ? '' : `${row.host}: `}${projectName(row.cwd) ?? '?'}${row.branch === null ? '' : ` · ${row.branch}`}`),
    state: terminalLine(stateText(row, now)),
    title: row.title === null ? null : terminalLine(row.title),
    flags: [row.muted !== null ? 'muted' : '', row.historical ? 'historical' : '', row.observed.confidence].filter((flag) => flag !== ''),
  }));
  // Never cut: the mark, the provider, the id's first 8 characters and the age (as wide as the widest).
  const ageWidth = Math.max(1, ...rows.map((item) => textWidth(item.age)));
  const fixed = 2 + PROVIDER_WIDTH + 1 + 8 + GAP.length + ageWidth + GAP.length;
  const naturalWhere = Math.max(1, ...rows.map((item) => textWidth(item.where)));
  // The folder gets up to two fifths of what is left; the state the rest.
  const whereWidth = width === null ? naturalWhere : Math.min(naturalWhere, Math.max(8, Math.floor((width - fixed) * 0.4)));
  const stateWidth = width === null ? null : Math.max(8, width - fixed - whereWidth - GAP.length);
  for (const item of rows) {
    const { row } = item;
    const mark = layout.color ? `\u001b[${COLORS[row.band]}m${MARKS[row.band]}\u001b[0m` : MARKS[row.band];
    const state = stateWidth === null ? item.state : cut(item.state, stateWidth);
    lines.push(
      `${mark} ${row.provider.padEnd(PROVIDER_WIDTH)} ${terminalLine(row.sessionId.slice(0, 8)).padEnd(8)}${GAP}${item.age.padStart(ageWidth)}${GAP}${fit(item.where, whereWidth)}${GAP}${state}`.trimEnd(),
    );
    const flags = `(${item.flags.join(', ')})`;
    const title = item.title === null ? '' : width === null ? item.title : cut(item.title, Math.max(8, width - 4 - 1 - textWidth(flags)));
    lines.push(`    ${title === '' ? flags : `${title} ${flags}`}`);
  }
  return lines;
}
