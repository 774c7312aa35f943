// Issue 25 item 5: a host's line is bounded before it is parsed — its nesting, its top-level keys,
// and what its row count could need. The link runs a fake ssh that prints one prepared line.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { HostView, Row } from '../../../src/engine';
import { HostLink } from '../../../src/main/hosts/host-link';

const base = mkdtempSync(join(tmpdir(), 'lookout-host-lines-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const ssh = join(base, 'ssh');
// Prints the prepared line, then stays connected (as a feed does) until the link lets go.
writeFileSync(ssh, '#!/bin/sh\ncat "$LOOKOUT_TEST_LINE"\nexec sleep 60\n', { mode: 0o755 });

const at = new Date(Date.parse('2026-11-29T12:00:00.000Z')).toISOString();

function row(index: number, extra: Record<string, unknown> = {}): Row & Record<string, unknown> {
  return {
    key: `claude:session-${index}`,
    host: null,
    provider: 'claude',
    sessionId: `session-${index}`,
    title: `Fix the parser, part ${index}`,
    cwd: `/home/me/src/project-${index}`,
    branch: 'main',
    lastActivityAt: at,
    observed: { state: 'awaiting-approval', reason: 'tool-pending', detail: 'Bash: npm test', source: 'claude.transcript', confidence: 'inferred', at },
    children: { liveness: 'none', live: 0 },
    review: { state: 'unreviewed', by: null, at: null, newActivitySince: false },
    workflow: 'needs-input',
    claim: { kind: 'needs-you', since: at, expiresAt: null, ambiguous: false, detail: 'Bash: npm test' },
    muted: null,
    historical: false,
    triageRank: 1,
    band: 'needs-you',
    idleStale: false,
    resetsAt: null,
    // The deepest a snapshot nests: a question's options (8 levels).
    answer: {
      state: 'open',
      request: 'req_0123456789abcdef01234567',
      digest: 'a'.repeat(64),
      prompt: 'question',
      tool: 'AskUserQuestion',
      text: 'Which database?',
      hidden: 0,
      questions: [
        {
          question: 'Which database?',
          header: 'DB',
          multiple: false,
          options: [
            { label: 'Postgres', description: null },
            { label: 'SQLite', description: 'one file' },
          ],
        },
      ],
      since: at,
      keysFrom: at,
      serial: false,
      deadline: at,
    },
    ...extra,
  };
}

const snapshot = (sessions: unknown[], extra: Record<string, unknown> = {}) => ({
  schemaVersion: 1,
  now: at,
  attention: { count: sessions.length, level: 'needs-you', needYou: sessions.length, review: 0, working: 0 },
  sessions,
  ...extra,
});

/** The link's view once the host's line has been taken or refused, and the problems said. */
async function linkOver(line: string): Promise<{ view: HostView; problems: string[] }> {
  const file = join(base, `line-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, `${line}\n`);
  const problems: string[] = [];
  let settled: (view: HostView) => void = () => undefined;
  const done = new Promise<HostView>((resolve) => {
    settled = resolve;
  });
  const link = new HostLink(
    { name: 'devbox', destination: 'devbox' },
    {
      clock: Date.now,
      env: { LOOKOUT_TEST_LINE: file },
      ssh,
      onProblem: (text) => problems.push(text),
      onChange: () => {
        const view = link.view();
        if (view.status.kind !== 'connecting') settled(view);
      },
    },
  );
  link.start();
  const view = await done;
  link.dispose();
  return { view, problems };
}

describe('issue 25 item 5: a remote line is bounded before it is parsed', () => {
  it('issue 25 item 5: a valid snapshot padded with nested arrays under an unknown key is cut off unparsed', async () => {
    const depth = 200_000;
    const nested = `${'['.repeat(depth)}${']'.repeat(depth)}`;
    // Under a key of its own: the key alone refuses it.
    const top = await linkOver(JSON.stringify(snapshot([row(1)])).replace(/}$/, `,"padding":${nested}}`));
    expect(top.view.status).toMatchObject({
      kind: 'failed',
      reason: 'devbox sent a line that is not a snapshot (a top-level key no feed writes ("padding")); cut off',
    });
    expect(top.view.snapshot).toBeNull();
    // Inside a row (whose unknown keys the schema would strip after parsing): its depth refuses it.
    const inRow = await linkOver(JSON.stringify(snapshot([row(1)])).replace(/"idleStale":false/, `"idleStale":false,"padding":${nested}`));
    expect(inRow.view.status).toMatchObject({ kind: 'failed', reason: 'devbox sent a line that is not a snapshot (nesting over 16 deep); cut off' });
    expect(inRow.view.snapshot).toBeNull();
    expect(inRow.problems).toEqual(['lookout: host devbox failed: devbox sent a line that is not a snapshot (nesting over 16 deep); cut off']);
  });

  it('issue 25 item 5: an unknown top-level key from a host is refused, however small', async () => {
    const { view } = await linkOver(JSON.stringify(snapshot([row(1)], { extra: [1, 2, 3] })));
    expect(view.status).toMatchObject({
      kind: 'failed',
      reason: 'devbox sent a line that is not a snapshot (a top-level key no feed writes ("extra")); cut off',
    });
    expect(view.snapshot).toBeNull();
  });

  it('issue 25 item 5: one row padded with 2 MB of flat arrays holds more values than one row could: refused', async () => {
    const { view } = await linkOver(JSON.stringify(snapshot([row(1, { padding: Array.from({ length: 500_000 }, () => [0]) })])));
    expect(view.status.kind === 'failed' ? view.status.reason : view.status.kind).toMatch(
      /^devbox sent a line that is not a snapshot \(\d+ values for 1 rows\); cut off$/,
    );
    expect(view.snapshot).toBeNull();
  });

  it('issue 25 item 5: one row padded with an 8 MB string is more bytes than one row could need: refused', async () => {
    const { view } = await linkOver(JSON.stringify(snapshot([row(1, { padding: 'x'.repeat(8 * 1024 * 1024) })])));
    expect(view.status.kind === 'failed' ? view.status.reason : view.status.kind).toMatch(
      /^devbox sent a line that is not a snapshot \(\d+ bytes for 1 rows\); cut off$/,
    );
    expect(view.snapshot).toBeNull();
  });

  it('issue 25 item 5: values beyond what the rows could hold are refused even within the bytes', async () => {
    const line = JSON.stringify(snapshot([row(1, { padding: Array.from({ length: 30_000 }, () => []) })]));
    expect(line.length).toBeLessThan(256 * 1024);
    const { view } = await linkOver(line);
    expect(view.status.kind === 'failed' ? view.status.reason : view.status.kind).toMatch(
      /^devbox sent a line that is not a snapshot \(\d+ values for 1 rows\); cut off$/,
    );
    expect(view.snapshot).toBeNull();
  });

  it('issue 25 item 5: what a feed writes passes — 3,000 full rows, an answer line, strings holding brackets and quotes', async () => {
    const rows = Array.from({ length: 3000 }, (_, index) => row(index, { title: `a "title" with [brackets] {braces}, commas and \\ ${'['.repeat(40)}` }));
    // One row with the longest command an answer carries, in three-byte characters, and 20 questions of 50 options.
    const question = {
      question: 'Which?',
      header: null,
      multiple: true,
      options: Array.from({ length: 50 }, (_, index) => ({ label: `option ${index}`, description: null })),
    };
    const open = row(3000, {
      answer: { ...row(0).answer, prompt: 'approval', text: '界'.repeat(64_000), questions: Array.from({ length: 20 }, () => question) },
    });
    expect((await linkOver(JSON.stringify(snapshot([open])))).view.status.kind).toBe('connected');
    const { view } = await linkOver(JSON.stringify(snapshot(rows, { answered: 'cmd-1-2', refused: 'no session here' })));
    expect(view.status.kind).toBe('connected');
    expect(view.snapshot?.sessions).toHaveLength(3000);
    expect((await linkOver(JSON.stringify(snapshot([])))).view.status.kind).toBe('connected');
  });
});
