// End to end: the built `lookout status` / `explain` against fixture roots, as a process.
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Snapshot } from '../../../src/engine';
import { FIXTURES, fixtures } from '../../providers/fixture-roots';
import { CLI, runCli } from '../cli-process';

const NOW = '2026-11-29T12:02:00.000Z';
let env: Record<string, string>;
let home: string;

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'lookout-e2e-'));
  const claude = join(home, 'claude');
  const codex = join(home, 'codex');
  for (const name of ['question-pending', 'tool-pending', 'failed-turn', 'working', 'long-finish', 'short-finish', 'malformed-lines']) {
    cpSync(join(FIXTURES, 'claude', name), claude, { recursive: true });
  }
  for (const name of ['working', 'failed-turn', 'tool-pending']) cpSync(join(FIXTURES, 'codex', name), codex, { recursive: true });
  env = { CLAUDE_CONFIG_DIR: claude, CODEX_HOME: codex, LOOKOUT_HOME: join(home, 'lookout'), HOME: home };
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

const keyOf = (name: string): string => {
  const fixture = fixtures('claude').find((item) => item.name === name);
  if (fixture === undefined) throw new Error(`no fixture ${name}`);
  return fixture.meta.sessionKey;
};

describe('lookout status (process)', () => {
  it('R31 R32 --json lists rows in triage order with the attention summary', () => {
    const result = runCli(['status', '--json', '--now', NOW], env);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const snapshot = JSON.parse(result.stdout) as Snapshot;
    expect(snapshot.schemaVersion).toBe(1);
    expect(snapshot.now).toBe(NOW);
    expect(snapshot.attention).toEqual({ count: 5, level: 'needs-you', needYou: 3, review: 2, working: 2, limited: 0 });
    expect(snapshot.sessions.map((row) => [row.triageRank, row.provider, row.observed.state, row.claim?.kind ?? null])).toEqual([
      [1, 'claude', 'awaiting-input', 'needs-you'],
      [1, 'claude', 'unknown', 'needs-you'],
      [1, 'codex', 'unknown', 'needs-you'],
      [2, 'claude', 'error', 'failed'],
      [2, 'codex', 'error', 'failed'],
      [8, 'claude', 'idle', 'finished'],
      [9, 'claude', 'running', null],
      [9, 'codex', 'running', null],
      [11, 'claude', 'idle', null],
      [11, 'claude', 'idle', null],
    ]);
  });

  it('cli.md every row has the contract fields, times as ISO strings', () => {
    const snapshot = JSON.parse(runCli(['status', '--json', '--now', NOW], env).stdout) as Snapshot;
    for (const row of snapshot.sessions) {
      expect(Object.keys(row)).toEqual(
        expect.arrayContaining([
          'key',
          'provider',
          'sessionId',
          'title',
          'cwd',
          'branch',
          'lastActivityAt',
          'observed',
          'children',
          'review',
          'workflow',
          'claim',
          'muted',
          'historical',
          'triageRank',
        ]),
      );
      expect(row.key).toBe(`${row.provider}:${row.sessionId}`);
      expect(row.lastActivityAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(row.review).toEqual({ state: 'unreviewed', by: null, at: null, newActivitySince: false });
    }
  });

  it('R5 historical rows are hidden unless --all', () => {
    const later = '2026-12-01T12:00:00.000Z';
    expect(JSON.parse(runCli(['status', '--json', '--now', later], env).stdout).sessions).toHaveLength(0);
    const all = JSON.parse(runCli(['status', '--json', '--all', '--now', later], env).stdout) as Snapshot;
    expect(all.sessions).toHaveLength(10);
    expect(all.sessions.every((row) => row.historical && row.triageRank === 13)).toBe(true);
  });

  it('the human table leads with the counts and names the request', () => {
    const result = runCli(['status', '--now', NOW], env);
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n')[0]).toBe('Lookout · 3 need you · 2 to review · 2 working');
    expect(result.stdout).toContain('asks: Which database?');
    expect(result.stdout).toContain('may be waiting for approval');
  });

  it.each([
    [['status', '--bogus'], /Unknown option '--bogus'/],
    [['status', '--now', 'yesterday'], /--now takes an ISO-8601 time/],
    [['frobnicate'], /unknown command "frobnicate"/],
    [['explain'], /explain needs a session/],
    [['explain', 'c1a'], /at least 4 characters/],
    [['explain', 'c1a0'], /is ambiguous: claude:c1a00000/],
    [['explain', 'zzzzzz'], /no session matches "zzzzzz"/],
  ])('usage errors exit 2 with one line: %j', (args, message) => {
    const result = runCli([...args, ...(args.includes('--now') ? [] : ['--now', NOW])], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('explain accepts a full key, a full id or a unique prefix, and shows the evidence and skipped lines', () => {
    const key = keyOf('question-pending');
    const byKey = runCli(['explain', key, '--now', NOW], env);
    expect(byKey.code).toBe(0);
    expect(byKey.stdout).toContain('question-pending');
    expect(byKey.stdout).toContain('R3 question tool pending');
    expect(runCli(['explain', key.slice('claude:'.length), '--now', NOW], env).stdout).toBe(byKey.stdout);
    const malformed = runCli(['explain', keyOf('malformed-lines'), '--now', NOW], env);
    expect(malformed.stdout).toContain('Skipped lines (malformed or oversized): 3');
  });
});

describe('lookout status into a reader that stops early', () => {
  it('exits 0 without a stack trace when the pipe is closed (`| head`)', async () => {
    const child = spawn(process.execPath, [CLI, 'status', '--json', '--now', NOW], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // Closed before Lookout writes anything, so its one write meets a closed pipe.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });
});
