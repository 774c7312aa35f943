// The fact commands end to end, as processes sharing one LOOKOUT_HOME (cli.md, §4, §5, §8).
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { Row, Snapshot } from '../../../src/engine';
import { FIXTURES, fixtures } from '../../providers/fixture-roots';
import { runCli } from '../cli-process';

const base = mkdtempSync(join(tmpdir(), 'lookout-commands-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const NOW = '2026-11-29T12:02:00.000Z';
const key = (name: string): string => fixtures('claude').find((item) => item.name === name)?.meta.sessionKey ?? '';
let env: Record<string, string>;
let run = 0;

beforeEach(() => {
  run += 1;
  const home = join(base, `run-${run}`);
  for (const name of ['question-pending', 'failed-turn', 'short-finish']) cpSync(join(FIXTURES, 'claude', name), join(home, 'claude'), { recursive: true });
  env = {
    CLAUDE_CONFIG_DIR: join(home, 'claude'),
    CODEX_HOME: join(home, 'codex'),
    LOOKOUT_HOME: join(home, 'lookout'),
    HOME: home,
    PATH: process.env.PATH ?? '',
  };
});

function status(now = NOW): Snapshot {
  const result = runCli(['status', '--json', '--all', '--now', now], env);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Snapshot;
}
const row = (snapshot: Snapshot, name: string): Row | undefined => snapshot.sessions.find((item) => item.key === key(name));
function ok(args: string[]): string {
  const result = runCli([...args, ...(args.includes('--now') ? [] : ['--now', NOW])], env);
  expect(result.code, result.stderr).toBe(0);
  return result.stdout;
}

describe('fact commands', () => {
  it('R20 R23 review sets the state (by the user) and the workflow shows it', () => {
    expect(ok(['review', key('short-finish'), 'flagged'])).toContain('review flagged');
    const flagged = row(status(), 'short-finish');
    expect(flagged?.review).toMatchObject({ state: 'flagged', by: 'user', at: NOW, newActivitySince: false });
    expect(flagged?.workflow).toBe('flagged');
    expect(flagged?.triageRank).toBe(6);
  });

  it('R60 mute --for hides a row from the count until it expires; unmute brings it back', () => {
    expect(status().attention.count).toBe(2);
    expect(ok(['mute', key('question-pending'), '--for', '1h'])).toContain('muted until 2026-11-29T13:02:00.000Z');
    const muted = status();
    expect(muted.attention.count).toBe(1);
    expect(muted.sessions.at(-1)?.key).toBe(key('question-pending'));
    expect(status('2026-11-29T13:02:00.000Z').sessions.find((item) => item.key === key('question-pending'))?.muted).toBeNull();
    ok(['unmute', key('question-pending')]);
    expect(status().attention.count).toBe(2);
  });

  it('R30 a visit clears a failed claim and is kept with its time', () => {
    expect(row(status(), 'failed-turn')?.claim?.kind).toBe('failed');
    ok(['visit', key('failed-turn')]);
    expect(row(status(), 'failed-turn')?.claim).toBeNull();
    const store = JSON.parse(readFileSync(join(env.LOOKOUT_HOME ?? '', 'store.json'), 'utf8'));
    expect(store.visits[key('failed-turn')]).toEqual({ at: NOW, fingerprint: null });
  });

  it('§5 attention raises an expiring needs-you with its message', () => {
    ok(['attention', key('short-finish'), 'check', 'the', 'migration']);
    const claim = row(status(), 'short-finish')?.claim;
    expect(claim).toMatchObject({ kind: 'needs-you', detail: 'check the migration', expiresAt: '2026-11-29T12:04:00.000Z' });
    expect(row(status('2026-11-29T12:04:00.000Z'), 'short-finish')?.claim).toBeNull();
  });

  it('R33 next names the first row wanting attention, or says 0 waiting', () => {
    const next = JSON.parse(ok(['next', '--json'])) as { waiting: number; next: Row | null };
    expect(next.waiting).toBe(2);
    expect(next.next?.key).toBe(key('question-pending'));
    ok(['mute', key('question-pending')]);
    ok(['visit', key('failed-turn')]);
    expect(ok(['next'])).toBe('0 waiting\n');
  });

  it('R22 the shipped rule marks a week-old session outdated once; a later user edit stands', () => {
    const later = '2026-12-07T12:00:00.000Z';
    expect(row(status(later), 'short-finish')?.review).toMatchObject({ state: 'outdated', by: 'rule:outdated-after-7d@1' });
    ok(['review', key('short-finish'), 'reviewed', '--now', '2026-12-08T12:00:00.000Z']);
    expect(row(status('2026-12-09T12:00:00.000Z'), 'short-finish')?.review).toMatchObject({ state: 'reviewed', by: 'user' });
  });

  it('R50 open --print shows the plan without running it', () => {
    const plan = JSON.parse(ok(['open', key('short-finish'), '--print']));
    // The fixture's folder (/home/me/app) does not exist here: nothing to open, and it says why.
    expect(plan).toEqual({ kind: 'none', reason: 'the session has no folder that exists here' });
  });

  it.each([
    [['review', 'c1a0', 'done'], /review needs a state: unreviewed, needs-review/],
    [['mute', 'x', '--for', 'forever'], /--for takes a duration/],
    [['review'], /review needs a state/],
    [['visit'], /visit needs a session/],
  ])('bad arguments exit 2 with one line: %j', (args, message) => {
    const result = runCli([...args, '--now', NOW], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
  });

  it('§10 a corrupt store is kept aside and reported; commands go on with defaults', () => {
    ok(['review', key('short-finish'), 'flagged']);
    writeFileSync(join(env.LOOKOUT_HOME ?? '', 'store.json'), '{"schemaVersion": 2, "rev');
    const result = runCli(['status', '--json', '--now', NOW], env);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/store\.json could not be used \(it is not valid JSON.*kept aside as .*store\.json\.corrupt-/);
    expect(readdirSync(env.LOOKOUT_HOME ?? '').some((name) => name.startsWith('store.json.corrupt-'))).toBe(true);
    expect(row(JSON.parse(result.stdout) as Snapshot, 'short-finish')?.review.state).toBe('unreviewed');
  });
});
