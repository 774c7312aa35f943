// Issue 25 item 2, the pure part: a notification's words are cut to sane lengths whatever a
// transcript holds, and every string another machine's row may carry is capped by the contract.
import { describe, expect, it } from 'vitest';
import type { Claim, NotifyCandidate, Row } from '../../src/engine';
import { hostRows, planNotification, remoteCandidates } from '../../src/engine';
import { ROW_FOLDER_MAX, ROW_TEXT_MAX, snapshotSchema } from '../../src/engine/contract';
import { cutLine, cutText } from '../../src/engine/text-cut';

const T = Date.parse('2026-11-29T12:00:00.000Z');
const LONG = 200_000;
const long = (char: string) => char.repeat(LONG);

const CLAIM: Claim = {
  kind: 'needs-you',
  since: T,
  expiresAt: null,
  ambiguous: false,
  detail: 'asks: which?',
  id: 'claude:a|needs-you|1',
  source: 'claude.transcript',
};
const candidate = (extra: Partial<NotifyCandidate>): NotifyCandidate => ({
  key: 'claude:a',
  providerName: 'Claude',
  cwd: '/home/me/app',
  branch: 'main',
  claim: CLAIM,
  muted: false,
  historical: false,
  treeKnown: true,
  ...extra,
});

function remoteRow(): Row {
  const at = new Date(T).toISOString();
  return {
    key: 'claude:r',
    host: null,
    provider: 'claude',
    sessionId: 'r',
    title: long('t'),
    cwd: `/${long('f')}`,
    branch: long('b'),
    lastActivityAt: at,
    observed: { state: 'awaiting-input', reason: 'question-pending', detail: long('o'), source: long('s'), confidence: 'inferred', at },
    children: { liveness: 'none', live: 0 },
    review: { state: 'unreviewed', by: long('y'), at: null, newActivitySince: false },
    workflow: 'needs-input',
    claim: { kind: 'needs-you', since: at, expiresAt: null, ambiguous: false, detail: `asks: ${long('d')}` },
    muted: null,
    historical: false,
    triageRank: 1,
    band: 'needs-you',
    idleStale: false,
    resetsAt: null,
    answer: { state: 'unavailable', why: long('w') },
  };
}

describe('issue 25 item 2: notification text of a sane length', () => {
  it('issue 25 item 2: a 200 KB branch, folder and detail make a notification of a few hundred characters, on one line each', () => {
    const plan = planNotification([
      candidate({ cwd: `/home/me/${long('f')}`, branch: `${long('b')}\nforged line`, claim: { ...CLAIM, detail: `asks: ${long('d')}` } }),
    ]);
    expect(plan?.title).toMatch(/^Claude · f+… \(b+…\) needs you$/);
    expect(plan?.title.length).toBeLessThanOrEqual(200);
    expect(plan?.body).toMatch(/^asks: d+…$/);
    expect(plan?.body.length).toBeLessThanOrEqual(200);
    // A digest: each of its lines cut too.
    const digest = planNotification([
      candidate({ branch: long('b') }),
      candidate({ key: 'claude:b', claim: { ...CLAIM, id: 'claude:b|needs-you|1', detail: long('d') } }),
    ]);
    expect(digest?.body.split('\n')).toHaveLength(2);
    expect(digest?.body.length).toBeLessThanOrEqual(700);
  });

  it("issue 25 item 2: an approval whose tool name is no tool's is told without Allow and Deny", () => {
    const answer = { request: `req_${'1'.repeat(24)}`, digest: 'd'.repeat(64), tool: long('T'), text: 'rm -rf build' };
    const plan = planNotification([candidate({ answer })]);
    expect(plan?.answer).toBeUndefined();
    expect(plan?.body).toBe('asks: which?');
  });

  it("issue 25 item 2: a remote row's title, folder, branch and details are capped by the contract (a folder too long to be one is none)", () => {
    const raw = {
      schemaVersion: 1,
      now: new Date(T).toISOString(),
      attention: { count: 1, level: 'needs-you', needYou: 1, review: 0, working: 0 },
      sessions: [remoteRow()],
    };
    const parsed = snapshotSchema.parse(raw);
    const [row] = parsed.sessions;
    expect(row?.title?.length).toBe(ROW_TEXT_MAX.title);
    expect(row?.title?.endsWith('…')).toBe(true);
    expect(row?.branch?.length).toBe(ROW_TEXT_MAX.branch);
    expect(row?.observed.detail?.length).toBe(ROW_TEXT_MAX.detail);
    expect(row?.observed.source.length).toBe(ROW_TEXT_MAX.word);
    expect(row?.claim?.detail?.length).toBe(ROW_TEXT_MAX.detail);
    expect(row?.review.by?.length).toBe(ROW_TEXT_MAX.word);
    expect(row?.answer).toEqual({ state: 'unavailable', why: `${'w'.repeat(ROW_TEXT_MAX.detail - 1)}…` });
    expect(row?.cwd).toBeNull();
    // A folder of a real length is kept whole; a time that is no time is refused.
    expect(snapshotSchema.parse({ ...raw, sessions: [{ ...remoteRow(), cwd: `/${'f'.repeat(ROW_FOLDER_MAX - 1)}` }] }).sessions[0]?.cwd).toHaveLength(
      ROW_FOLDER_MAX,
    );
    expect(snapshotSchema.safeParse({ ...raw, now: long('9') }).success).toBe(false);
    // What it notifies here is short.
    const shown = remoteCandidates(hostRows({ name: 'devbox', status: { kind: 'connected', since: T }, snapshot: parsed, receivedAt: T }), {
      claude: 'Claude',
    });
    const plan = planNotification(shown);
    expect(plan?.title.length).toBeLessThanOrEqual(200);
    expect(plan?.body.length).toBeLessThanOrEqual(200);
  });

  it('cuts never leave half a character', () => {
    expect(cutText('ab😀cd', 4)).toBe('ab…');
    expect(cutText('abc', 3)).toBe('abc');
    expect(cutLine(`a${' '.repeat(1000)}b`, 10)).toBe('a…');
    expect(cutLine('a\n\tb', 10)).toBe('a b');
  });
});
