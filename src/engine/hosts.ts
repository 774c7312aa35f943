// Rows from other machines (issue 13): each host's last snapshot, as its own Lookout derived it,
// merged with this machine's rows in one triage order. A host that cannot be reached keeps its
// last rows, each read `unknown` (`host-unreachable`) with the time of its last good snapshot:
// never idle, never dropped, never counted as needing you. Pure: no I/O, no clock.
import { rowClaimId } from './notification-actions';
import type { AutomationRule } from './facts';
import { notifyLevel } from './rules';
import type { Claim } from './claims';
import type { NotifyCandidate } from './notify';
import type { Row, Snapshot } from './row';
import { SCHEMA_VERSION, iso } from './row';
import { attentionOf, compareTriage, rankOf, triageBand } from './triage';

/** Where a host's link stands. */
export type HostStatus =
  | { kind: 'connecting'; since: number }
  | { kind: 'connected'; since: number }
  | { kind: 'unreachable'; since: number; reason: string }
  | { kind: 'failed'; since: number; reason: string };

export interface HostView {
  name: string;
  status: HostStatus;
  /** The last good snapshot the host sent, and when it came. */
  snapshot: Snapshot | null;
  receivedAt: number | null;
  /** The Lookout there, as its feed said in answer to the hello: undefined not yet said, null a feed from before the handshake. */
  lookout?: { version: string; protocol: number } | null;
}

/** A remote row's key: the host's name before the key its own Lookout gave it. */
function hostKey(host: string, key: string): string {
  return `${host}:${key}`;
}

/** The host and the key on that host, for a key this machine shows (null host: a local row). */
export function splitHostKey(key: string, hosts: readonly string[]): { host: string | null; key: string } {
  const colon = key.indexOf(':');
  const head = colon === -1 ? '' : key.slice(0, colon);
  return hosts.includes(head) ? { host: head, key: key.slice(colon + 1) } : { host: null, key };
}

const ms = (value: string | null): number | null => {
  if (value === null) return null;
  const parsed = Date.parse(value);
  return Number.isNaN(parsed) ? null : parsed;
};

function unreachableRow(row: Row, host: HostView): Row {
  const reason = host.status.kind === 'unreachable' || host.status.kind === 'failed' ? host.status.reason : 'reconnecting';
  const last = host.receivedAt === null ? 'never' : iso(host.receivedAt);
  const workflow = 'unknown' as const;
  const band = triageBand(null, row.review.state, workflow, row.historical);
  return {
    ...row,
    observed: {
      state: 'unknown',
      reason: 'host-unreachable',
      detail: `${host.name} unreachable since ${iso(host.status.since)} (${reason}); last snapshot ${last}`,
      source: `${host.name}.ssh`,
      confidence: 'unknown',
      at: host.receivedAt === null ? null : iso(host.receivedAt),
    },
    workflow,
    claim: null,
    band,
    triageRank: rankOf(band),
    idleStale: false,
    // R70: a host that cannot be reached cannot answer either.
    answer: null,
    resetsAt: null,
  };
}

/** A host's rows as this machine shows them: keys prefixed, the host named, stale ones marked. */
export function hostRows(host: HostView): Row[] {
  const rows = host.snapshot?.sessions ?? [];
  const connected = host.status.kind === 'connected';
  return rows.map((row) => {
    // The rank is this machine's for the band: an older host numbers its bands without the limit ones.
    const named: Row = { ...row, key: hostKey(host.name, row.key), host: host.name, triageRank: rankOf(row.band) };
    return connected ? named : unreachableRow(named, host);
  });
}

function waitingSince(row: Row): number | null {
  if (row.band === 'flagged' || row.band === 'needs-review') return ms(row.review.at);
  return ms(row.claim?.since ?? null);
}

/** How a host's link stands, in words: connected / connecting / unreachable since … / failed: reason. */
export function hostState(status: HostStatus): string {
  switch (status.kind) {
    case 'connected':
      return 'connected';
    case 'connecting':
      return 'connecting';
    case 'unreachable':
      return `unreachable since ${iso(status.since)}: ${status.reason}`;
    case 'failed':
      return `failed: ${status.reason}`;
  }
}

/** This machine's snapshot with every host's rows, in one triage order (R31), counted again (R32). */
export function mergeHosts(local: Snapshot, hosts: readonly HostView[]): Snapshot {
  if (hosts.length === 0) return local;
  const rows = [...local.sessions, ...hosts.flatMap(hostRows)];
  const ambiguous = new Set(rows.filter((row) => row.claim?.ambiguous === true).map((row) => row.key));
  const ordered = rows
    .map((row) => ({
      row,
      rank: { key: row.key, rank: row.triageRank, waitingSince: waitingSince(row), lastActivityAt: ms(row.lastActivityAt), muted: row.muted !== null },
    }))
    .sort((a, b) => compareTriage(a.rank, b.rank, (item) => ambiguous.has(item.key)))
    .map((item) => item.row);
  const attention = attentionOf(ordered.map((row) => ({ band: row.band, muted: row.muted !== null, historical: row.historical, workflow: row.workflow })));
  const limits = [...local.limits, ...hosts.flatMap((host) => (host.snapshot?.limits ?? []).map((limit) => ({ ...limit, host: host.name })))];
  return { schemaVersion: SCHEMA_VERSION, now: local.now, attention, sessions: ordered, limits };
}

/**
 * Remote rows as notification candidates for this machine's ledger (R40–R44): a claim is known by
 * its row's key, kind and start, so each is told once here whatever the host sends again.
 */
export function remoteCandidates(
  rows: readonly Row[],
  providerNames: Readonly<Record<string, string>>,
  rules: readonly AutomationRule[] = [],
): NotifyCandidate[] {
  return rows.flatMap((row) => {
    if (row.host === null || row.claim === null) return [];
    const since = ms(row.claim.since);
    if (since === null) return [];
    const claim: Claim = {
      kind: row.claim.kind,
      since,
      expiresAt: ms(row.claim.expiresAt),
      ambiguous: row.claim.ambiguous,
      detail: row.claim.detail,
      id: rowClaimId(row) ?? '',
      source: row.observed.source,
      resetsAt: ms(row.resetsAt),
    };
    // The host's own Lookout waited for its working tree before it called a turn finished.
    const level = notifyLevel(rules, { cwd: row.cwd, provider: row.provider, host: row.host });
    return [
      {
        key: row.key,
        providerName: `${providerNames[row.provider] ?? row.provider} on ${row.host}`,
        cwd: row.cwd,
        branch: row.branch,
        claim,
        muted: row.muted !== null,
        historical: row.historical,
        treeKnown: true,
        level,
      },
    ];
  });
}
