// Homes made of Claude fixtures, one folder per call, removed after the file's tests.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { FIXTURES } from '../providers/fixture-roots';

export function fixtureHomes(prefix: string): { base: string; home(names: string[]): Record<string, string> } {
  const base = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(base, { recursive: true, force: true }));
  let n = 0;
  return {
    base,
    home(names) {
      n += 1;
      const dir = join(base, `run-${n}`);
      for (const name of names) cpSync(join(FIXTURES, 'claude', name), join(dir, 'claude'), { recursive: true });
      return { CLAUDE_CONFIG_DIR: join(dir, 'claude'), CODEX_HOME: join(dir, 'codex'), LOOKOUT_HOME: join(dir, 'home'), HOME: dir };
    },
  };
}

/**
 * Makes the folder of a home's Claude fixtures (/home/me/app) a git repository under `base` with
 * one changed file, and points the fixtures' transcripts at it: a finish there has work to review.
 */
export function fixturesInRepo(env: Record<string, string>, base: string): string {
  const repo = mkdtempSync(join(base, 'repo-'));
  execFileSync('git', ['init', '-q', repo]);
  writeFileSync(join(repo, 'changed.txt'), 'new work\n');
  const project = join(env.CLAUDE_CONFIG_DIR ?? '', 'projects', '-home-me-app');
  for (const name of readdirSync(project)) {
    const path = join(project, name);
    writeFileSync(path, readFileSync(path, 'utf8').replaceAll('"/home/me/app"', JSON.stringify(repo)));
  }
  return repo;
}
