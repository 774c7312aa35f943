// Issue 13, the pure part: other machines' rows merged with this one's (src/engine/hosts.ts).
import { describe, expect, it } from 'vitest';
import type { HostView, Row, Snapshot } from '../../src/engine';
import { hostRows, mergeHosts, remoteCandidates, splitHostKey } from '../../src/engine';
import { snapshotSchema } from '../../src/engine/contract';

const T = Date.parse('2026-11-29T12:00:00.000Z');
const at = (seconds: number) => new Date(T + seconds * 1000).toISOString();

function row(key: string, band: Row['band'], extra: Partial<Row> = {}): Row {
  const rank =
    ['needs-you', 'failed', 'ready-for-review', 'flagged', 'needs-review', 'finished', 'working', 'unknown', 'idle', 'done', 'historical'].indexOf(band) + 1;
  return {
    key,
    host: null,
    provider: 'claude',
    sessionId: key.split(':').at(-1) ?? key,
    title: key,
    cwd: '/home/me/app',
    branch: 'main',
    lastActivityAt: at(0),
    observed: {
      state: band === 'needs-you' ? 'awaiting-input' : band === 'working' ? 'running' : 'idle',
      reason: band === 'needs-you' ? 'question-pending' : band === 'working' ? 'turn-open' : 'turn-finished',
      detail: null,
      source: 'claude.transcript',
      confidence: 'inferred',
      at: at(0),
    },
    children: { liveness: 'none', live: 0 },
    review: { state: 'unreviewed', by: null, at: null, newActivitySince: false },
    workflow: band === 'needs-you' ? 'needs-input' : band === 'working' ? 'working' : 'unreviewed',
    claim: band === 'needs-you' ? { kind: 'needs-you', since: at(0), expiresAt: null, ambiguous: false, detail: 'asks: Which database?' } : null,
    muted: null,
    historical: false,
    triageRank: rank,
    band,
    idleStale: false,
    resetsAt: null,
    answer: null,
    ...extra,
  };
}

const snapshot = (sessions: Row[]): Snapshot => ({
  schemaVersion: 1,
  now: at(60),
  attention: { count: 0, level: 'none', needYou: 0, review: 0, working: 0, limited: 0 },
  sessions,
  limits: [],
});
const host = (name: string, sessions: Row[], status: HostView['status'] = { kind: 'connected', since: T }): HostView => ({
  name,
  status,
  snapshot: snapshot(sessions),
  receivedAt: T + 30_000,
});

describe("other machines' rows (issue 13)", () => {
  it('R31 rows of every machine in one triage order, keys prefixed with the host, counted again (R32)', () => {
    const local = snapshot([row('claude:a', 'working'), row('claude:b', 'idle')]);
    const merged = mergeHosts(local, [
      host('devbox', [row('claude:c', 'needs-you', { claim: { kind: 'needs-you', since: at(10), expiresAt: null, ambiguous: false, detail: null } })]),
      host('gpu', [row('claude:d', 'needs-you')]),
    ]);
    expect(merged.sessions.map((item) => [item.key, item.host])).toEqual([
      // Needs you, oldest wait first; then working; then idle.
      ['gpu:claude:d', 'gpu'],
      ['devbox:claude:c', 'devbox'],
      ['claude:a', null],
      ['claude:b', null],
    ]);
    expect(merged.attention).toMatchObject({ count: 2, needYou: 2, level: 'needs-you', working: 1 });
  });

  it("an unreachable host keeps its rows, each unknown (host-unreachable) with the last good snapshot's time: never counted, never idle", () => {
    const down = host('devbox', [row('claude:c', 'needs-you'), row('claude:e', 'idle')], {
      kind: 'unreachable',
      since: T + 40_000,
      reason: 'Connection refused',
    });
    const rows = hostRows(down);
    expect(rows.map((item) => [item.key, item.observed.state, item.observed.reason, item.claim, item.workflow, item.band])).toEqual([
      ['devbox:claude:c', 'unknown', 'host-unreachable', null, 'unknown', 'unknown'],
      ['devbox:claude:e', 'unknown', 'host-unreachable', null, 'unknown', 'unknown'],
    ]);
    expect(rows[0]?.observed).toMatchObject({
      confidence: 'unknown',
      source: 'devbox.ssh',
      at: at(30),
      detail: `devbox unreachable since ${at(40)} (Connection refused); last snapshot ${at(30)}`,
    });
    expect(mergeHosts(snapshot([]), [down]).attention.count).toBe(0);
  });

  it("keys: a host name before a local key; anything else is this machine's", () => {
    expect(splitHostKey('devbox:claude:abc', ['devbox'])).toEqual({ host: 'devbox', key: 'claude:abc' });
    expect(splitHostKey('claude:abc', ['devbox'])).toEqual({ host: null, key: 'claude:abc' });
    expect(splitHostKey('gpu:claude:abc', ['devbox'])).toEqual({ host: null, key: 'gpu:claude:abc' });
  });

  it('R41 a remote claim is known by its key, kind and start: the same claim sent again is the same id; named with its host', () => {
    const rows = hostRows(host('devbox', [row('claude:c', 'needs-you')]));
    const [first] = remoteCandidates(rows, { claude: 'Claude' });
    const [again] = remoteCandidates(hostRows(host('devbox', [row('claude:c', 'needs-you')])), { claude: 'Claude' });
    expect(first?.claim?.id).toBe(`devbox:claude:c|needs-you|${T}`);
    expect(again?.claim?.id).toBe(first?.claim?.id);
    expect(first?.providerName).toBe('Claude on devbox');
    // This machine's rows are not remote candidates: the engine's own evaluation notifies them.
    expect(remoteCandidates([row('claude:a', 'needs-you')], { claude: 'Claude' })).toEqual([]);
  });
});

describe('a snapshot from a Lookout before hosts existed', () => {
  it("its rows, without `host`, read as that machine's own (host null)", () => {
    const { host: _omitted, ...old } = row('claude:s1', 'working');
    const parsed = snapshotSchema.safeParse({ ...snapshot([]), sessions: [old] });
    expect(parsed.success ? parsed.data.sessions[0]?.host : parsed.error.message).toBeNull();
  });
});
