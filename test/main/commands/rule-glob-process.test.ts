// Issue 25 item 3: a rule's folder glob was a backtracking RegExp; a hostile or careless pattern
// hung `status`, `watch` and the tray. Run as real processes: the old code never returns.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Snapshot } from '../../../src/engine';
import { CLI, runCli } from '../cli-process';
import { FIXTURES } from '../../providers/fixture-roots';

const base = mkdtempSync(join(tmpdir(), 'lookout-glob-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const NOW = '2026-11-29T12:02:00.000Z';

/** Claude's question-pending fixture, its session moved to `cwd`. */
function homeWith(cwd: string, rules: object[]): Record<string, string> {
  const dir = mkdtempSync(join(base, 'case-'));
  const claude = join(dir, 'claude');
  cpSync(join(FIXTURES, 'claude', 'question-pending'), claude, { recursive: true });
  const project = join(claude, 'projects', '-home-me-app');
  for (const name of readdirSync(project)) {
    const path = join(project, name);
    writeFileSync(path, readFileSync(path, 'utf8').replaceAll('"cwd":"/home/me/app"', `"cwd":${JSON.stringify(cwd)}`));
  }
  const env = { CLAUDE_CONFIG_DIR: claude, CODEX_HOME: join(dir, 'codex'), LOOKOUT_HOME: join(dir, 'home'), HOME: dir };
  mkdirSync(env.LOOKOUT_HOME, { recursive: true, mode: 0o700 });
  writeFileSync(join(env.LOOKOUT_HOME, 'settings.json'), JSON.stringify({ rules }));
  return env;
}

/** `status --json`, given 40 s: the backtracking matcher took forever (13 stars) or seconds per row. */
function status(env: Record<string, string>): { code: number | null; snapshot: Snapshot | null } {
  const result = spawnSync(process.execPath, [CLI, 'status', '--json', '--now', NOW], {
    env: { PATH: process.env.PATH ?? '', ...env },
    encoding: 'utf8',
    timeout: 40_000,
  });
  return { code: result.status, snapshot: result.status === 0 ? (JSON.parse(result.stdout) as Snapshot) : null };
}

const thirteenStars = `/${'*a'.repeat(12)}*b`;

describe('rule folder globs in bounded time (issue 25 item 3)', () => {
  it('issue 25 item 3: a glob with 13 stars against a 40-character folder matches in linear time', () => {
    expect(thirteenStars.split('*')).toHaveLength(14);
    const env = homeWith(`/${'a'.repeat(39)}`, [
      { id: 'stars', version: 1, when: { folder: thirteenStars }, mute: true },
      { id: 'dashes', version: 1, when: { folder: '/*-*-*' }, mute: true },
      { id: 'all', version: 1, when: { folder: '/a*a' }, notify: 'never' },
    ]);
    const { code, snapshot } = status(env);
    // Killed by the timeout (null) before the fix.
    expect(code).toBe(0);
    const row = snapshot?.sessions[0];
    expect(row?.cwd).toHaveLength(40);
    // Neither glob matches ("b" and "-" are missing): not muted.
    expect(row?.muted).toBeNull();
  }, 60_000);

  it('issue 25 item 3: the ordinary "*-*-*" against a 4,000-character folder name costs nothing', () => {
    // The RegExp backtracked cubically on a name it could not match (the "/x" below it): ~30 s here.
    const name = '-'.repeat(4000);
    const { code, snapshot } = status(homeWith(`/home/me/src/${name}/x`, [{ id: 'dashes', version: 1, when: { folder: '/home/me/src/*-*-*' }, mute: true }]));
    expect(code).toBe(0);
    expect(snapshot?.sessions[0]?.muted).toBeNull();
    // The name itself matches, and the rule mutes it.
    expect(
      status(homeWith(`/home/me/src/${name}`, [{ id: 'dashes', version: 1, when: { folder: '/home/me/src/*-*-*' }, mute: true }])).snapshot?.sessions[0]?.muted,
    ).toEqual({ until: null });
  }, 90_000);

  it('issue 25 item 3: rules add takes the 13 stars, and refuses a pattern past 500 characters (exit 2, one line)', () => {
    const env = homeWith('/home/me/app', []);
    expect(runCli(['rules', 'add', '--folder', thirteenStars, '--mute', '--id', 'stars'], env)).toMatchObject({ code: 0 });
    const long = `/${'x'.repeat(600)}`;
    expect(runCli(['rules', 'add', '--folder', long, '--mute'], env)).toEqual({
      code: 2,
      stdout: '',
      stderr: 'lookout: --folder takes a glob of at most 500 characters (got 601)\n',
    });
    const written = JSON.parse(readFileSync(join(env.LOOKOUT_HOME ?? '', 'settings.json'), 'utf8')) as { rules: { id: string }[] };
    expect(written.rules.map((rule) => rule.id)).toEqual(['stars']);
  });
});
