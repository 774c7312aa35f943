// R80–R83 in the popover's model and the tray's menu, without a DOM: the limit groups, the words
// until the reset, the countdown, the header's windows and the tray's lines.
import { describe, expect, it } from 'vitest';
import type { Row, Snapshot } from '../../src/engine/row';
import { detailLine, groupRows, rowAge } from '../../src/popover/model';
import { contextMenu, limitLines, tooltip } from '../../src/tray/tray-model';

const T = Date.parse('2026-12-04T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const HOUR = 3600_000;

function row(key: string, band: Row['band'], extra: Partial<Row> = {}): Row {
  return {
    key,
    host: null,
    provider: 'claude',
    sessionId: key,
    title: key,
    cwd: `/work/${key}`,
    branch: null,
    lastActivityAt: iso(T),
    observed: {
      state: 'limited',
      reason: 'usage-limit',
      detail: "You've hit your limit · resets 3pm",
      source: 'claude.transcript',
      confidence: 'inferred',
      at: iso(T),
    },
    children: { liveness: 'none', live: 0 },
    review: { state: 'unreviewed', by: null, at: null, newActivitySince: false },
    workflow: 'limited',
    claim: { kind: band === 'limit-reset' ? 'limit-reset' : 'limited', since: iso(T), expiresAt: iso(T + 2 * HOUR), ambiguous: false, detail: null },
    muted: null,
    historical: false,
    triageRank: 4,
    band,
    idleStale: false,
    resetsAt: iso(T + 2 * HOUR),
    answer: null,
    ...extra,
  };
}

const snapshot = (sessions: Row[], limits: Snapshot['limits'] = []): Snapshot => ({
  schemaVersion: 1,
  now: iso(T),
  attention: { count: 0, level: 'none', needYou: 0, review: 0, working: 0, limited: sessions.filter((item) => item.band === 'limited').length },
  sessions,
  limits,
});

describe('usage limits in the popover and the tray', () => {
  it('R81 limited and limit-reset rows have their own groups, after Failed and before Ready for review', () => {
    const groups = groupRows(
      [
        row('r', 'ready-for-review', {
          observed: { state: 'idle', reason: 'turn-finished', detail: null, source: 'x', confidence: 'inferred', at: iso(T) },
          claim: null,
          resetsAt: null,
        }),
        row('l', 'limited'),
        row('g', 'limit-reset'),
        row('f', 'failed'),
      ],
      false,
    );
    expect(groups.map((group) => group.id)).toEqual(['failed', 'limit-reset', 'limited', 'ready-for-review']);
  });

  it('R81 a limited row counts down to its reset and says until when, with the agent’s words', () => {
    const limited = row('l', 'limited');
    expect(rowAge(limited, T + 30 * 60_000)).toEqual({ text: 'in 1h 30m', label: 'resets in 1h 30m' });
    expect(detailLine(limited, T)).toMatch(/^usage limit until \d\d:\d\d( [AP]M)? — You've hit your limit · resets 3pm$/);
    expect(detailLine(row('g', 'limit-reset'), T + 3 * HOUR)).toMatch(/^usage limit reset at \d\d:\d\d( [AP]M)? — can go on$/);
    expect(detailLine(row('n', 'limited', { resetsAt: null }), T)).toBe("stopped by a usage limit (no reset time given) — You've hit your limit · resets 3pm");
  });

  it('R81 the tray says how many a limit stopped, until the earliest reset, and how many can go on; muted rows are left out', () => {
    const names = { claude: 'Claude', codex: 'Codex' };
    const clock = (ms: number) => new Date(ms).toISOString().slice(11, 16);
    const rows = [
      row('a', 'limited'),
      row('b', 'limited', { resetsAt: iso(T + HOUR) }),
      row('c', 'limit-reset', { provider: 'codex' }),
      row('m', 'limited', { muted: { until: null }, resetsAt: iso(T) }),
    ];
    const limits: Snapshot['limits'] = [
      {
        provider: 'codex',
        host: null,
        key: 'codex:c',
        windows: [{ name: 'primary', usedPercent: 42.4, windowMinutes: 300, resetsAt: iso(T + HOUR), at: iso(T) }],
      },
    ];
    const lines = limitLines(snapshot(rows, limits), names, clock);
    expect(lines).toEqual(['Claude: 2 stopped by a usage limit until 13:00', 'Codex: limit reset, 1 can go on', 'Codex usage: primary 42% (resets 13:00)']);
    expect(
      contextMenu(false, null, lines)
        .slice(0, 4)
        .map((item) => [item.action, item.label]),
    ).toEqual([...lines.map((line) => ['open', line]), ['open', 'Open Lookout']]);
    expect(tooltip(snapshot(rows))).toBe('0 need you · 0 to review · 0 working · 3 stopped by a limit');
  });
});
