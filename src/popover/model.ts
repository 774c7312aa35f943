// Pure derivations for the popover: groups in triage order, filtering, the "next" jump, words
// and times. Kept apart from components so they are tested without a DOM.
import type { Row } from '../engine/row';
import type { Band } from '../engine/vocabulary';
import { formatDuration, projectName, rowCounted, rowTone } from '../engine';
import { answeredLine } from './answer';
import { visibleText } from '../engine/visible-text';

/** A group per triage band, and one for muted rows. */
export type GroupId = Band | 'muted';

export const GROUPS: { id: GroupId; title: string; collapsed: boolean }[] = [
  { id: 'needs-you', title: 'Needs you', collapsed: false },
  { id: 'failed', title: 'Failed', collapsed: false },
  { id: 'limit-reset', title: 'Can go on: limit reset', collapsed: false },
  { id: 'limited', title: 'Stopped by a usage limit', collapsed: false },
  { id: 'ready-for-review', title: 'Ready for review', collapsed: false },
  { id: 'flagged', title: 'Flagged', collapsed: false },
  { id: 'needs-review', title: 'Needs review', collapsed: false },
  { id: 'finished', title: 'Finished', collapsed: false },
  { id: 'working', title: 'Working', collapsed: false },
  { id: 'unknown', title: 'Unknown', collapsed: false },
  { id: 'idle', title: 'Idle', collapsed: true },
  { id: 'done', title: 'Reviewed / Complete / Outdated', collapsed: true },
  { id: 'muted', title: 'Muted', collapsed: true },
  { id: 'historical', title: 'Historical', collapsed: true },
];

export function groupOf(row: Row): GroupId {
  if (row.historical) return 'historical';
  if (row.muted !== null) return 'muted';
  return row.band;
}

/** The colour class of a row's mark: one meaning each (popover.md), the engine's tone. */
export function markClass(row: Row): 'needs' | 'review' | 'working' | 'neutral' {
  const tone = rowTone(row);
  return tone === 'needs-you' ? 'needs' : tone;
}

export function matches(row: Row, filter: string): boolean {
  const words = filter
    .toLowerCase()
    .split(/\s+/)
    .filter((word) => word !== '');
  if (words.length === 0) return true;
  const text = [row.title, row.cwd, row.branch, row.provider, row.host, row.observed.detail, row.claim?.detail, row.observed.state, row.workflow]
    .filter((part) => part !== null && part !== undefined)
    .join(' ')
    .toLowerCase();
  return words.every((word) => text.includes(word));
}

/**
 * All rows, the counted ones, one provider's (`provider:<id>`, from the registry's list), or one
 * machine's (`host:<name>`; `host:` alone is this machine).
 */
export type QuickFilter = 'all' | 'attention' | `provider:${string}` | `host:${string}`;

export function passesQuick(row: Row, quick: QuickFilter): boolean {
  if (quick === 'all') return true;
  if (quick === 'attention') return rowCounted(row);
  if (quick.startsWith('host:')) return (row.host ?? '') === quick.slice('host:'.length);
  return row.provider === quick.slice('provider:'.length);
}

export interface Group {
  id: GroupId;
  title: string;
  rows: Row[];
}

/**
 * Rows grouped in triage order; historical rows only on request. `held` keeps a row in the group
 * it was shown in (while the pointer is over the list, a row does not jump away under it).
 */
export function groupRows(rows: readonly Row[], showHistorical: boolean, held: ReadonlyMap<string, GroupId> = new Map()): Group[] {
  const buckets = new Map<GroupId, Row[]>();
  for (const row of rows) {
    const id = held.get(row.key) ?? groupOf(row);
    if (id === 'historical' && !showHistorical) continue;
    buckets.set(id, [...(buckets.get(id) ?? []), row]);
  }
  return GROUPS.flatMap((group) => {
    const members = buckets.get(group.id);
    return members === undefined ? [] : [{ id: group.id, title: group.title, rows: members }];
  });
}

/** R33: the first counted row after the current one (wrapping), in triage order. */
export function nextWanting(rows: readonly Row[], current: string | null): Row | null {
  const counted = rows.filter(rowCounted);
  if (counted.length === 0) return null;
  const index = counted.findIndex((row) => row.key === current);
  return counted[(index + 1) % counted.length] ?? null;
}

/**
 * Rows hold their order while the pointer is over the list (popover.md): known rows keep their
 * places with fresh contents, new ones join at the end, gone ones leave.
 */
export function holdOrder(previous: readonly string[], rows: readonly Row[]): Row[] {
  const byKey = new Map(rows.map((row) => [row.key, row]));
  const kept = previous.flatMap((key) => {
    const row = byKey.get(key);
    return row === undefined ? [] : [row];
  });
  const seen = new Set(previous);
  return [...kept, ...rows.filter((row) => !seen.has(row.key))];
}

/** The provider's short name from the state's list (the registry's), else its id. */
export function providerName(row: Row, names: Readonly<Record<string, string>>): string {
  return names[row.provider] ?? row.provider;
}

export function where(row: Row): string {
  const folder = projectName(row.cwd) ?? 'unknown folder';
  return row.branch === null ? folder : `${folder} · ${row.branch}`;
}

/** A limit's reset as a time of day on this machine's clock ("15:00"); with its day when not today. */
export function clockTime(iso: string, now: number): string {
  const at = new Date(iso);
  const time = at.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  return Math.abs(at.getTime() - now) <= 20 * 3600_000 ? time : `${at.toLocaleDateString([], { weekday: 'short', day: 'numeric', month: 'short' })} ${time}`;
}

/** R80–R81: until when a limit holds the row, or that it can go on; the agent's words after. */
function limitLine(row: Row, now: number): string {
  const words = row.observed.detail;
  const reset = row.resetsAt;
  if (row.claim?.kind === 'limit-reset' && reset !== null) return `usage limit reset at ${clockTime(reset, now)} — can go on`;
  const until = reset === null ? 'stopped by a usage limit (no reset time given)' : `usage limit until ${clockTime(reset, now)}`;
  return words === null ? until : `${until} — ${words}`;
}

/** The detail line: the request itself, then what it means; an answered prompt says so (R73). */
export function detailLine(row: Row, now: number): string {
  // A command in the detail reads as it runs, as on the card (issue 47 item 2).
  return visibleText(detailWords(row, now));
}

function detailWords(row: Row, now: number): string {
  const { claim, observed } = row;
  const answered = answeredLine(row.answer);
  if (answered !== null) return answered;
  if (observed.state === 'limited') return limitLine(row, now);
  if (claim?.kind === 'needs-you') {
    if (claim.ambiguous) return claim.detail ?? 'may be waiting for approval';
    const what = observed.state === 'awaiting-approval' ? 'awaiting approval' : 'waiting for you';
    return claim.detail === null ? what : `${claim.detail} — ${what}`;
  }
  if (claim?.kind === 'failed') return claim.detail ?? 'the turn ended in an error';
  if (claim !== null) return claim.detail ?? claim.kind;
  const state = observed.state.replace(/-/g, ' ');
  if (observed.state === 'unknown' && observed.reason === 'stale-evidence') return 'no recent evidence — state unknown';
  return observed.detail === null ? state : `${observed.detail} — ${state}`;
}

function age(iso: string | null, now: number): string {
  if (iso === null) return '';
  return formatDuration(now - Date.parse(iso));
}

/** The row's time: how long its claim stood, or (R81) how long until a limit resets. */
export function rowAge(row: Row, now: number): { text: string; label: string } {
  if (row.claim?.kind === 'limited' && row.resetsAt !== null) {
    const left = formatDuration(Math.max(0, Date.parse(row.resetsAt) - now));
    return { text: `in ${left}`, label: `resets in ${left}` };
  }
  const since = age(row.claim?.since ?? row.lastActivityAt, now);
  return { text: since, label: `${since} ago` };
}
