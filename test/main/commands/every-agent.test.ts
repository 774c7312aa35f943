// Issue 24's "done when": one home holding a session of every agent in the registry, each written
// by the real agent in the live lab (test/fixtures/live), read by the built command line side by
// side; `open --print` of each row resumes it with that agent's own command, in its folder.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PROVIDERS } from '../../../src/providers';
import { runCli } from '../cli-process';

const LIVE = resolve(__dirname, '../../fixtures/live');
const scratch = mkdtempSync(join(tmpdir(), 'lookout-every-agent-'));
const made: string[] = [];
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
  for (const folder of made) rmSync(folder, { recursive: true, force: true });
});

interface Case {
  agent: string;
  now: string;
  sessionKey: string;
}

/** The agent's recorded `killed` case (every agent has one): its process gone, so `open` resumes it. */
function caseOf(agent: string): { folder: string; meta: Case } | null {
  for (const version of readdirSync(LIVE).filter((name) => name.startsWith(`${agent}-`))) {
    const folder = join(LIVE, version, 'killed');
    if (existsSync(join(folder, 'case.json'))) return { folder, meta: JSON.parse(readFileSync(join(folder, 'case.json'), 'utf8')) as Case };
  }
  return null;
}

interface Row {
  key: string;
  provider: string;
  sessionId: string;
  cwd: string | null;
  observed: { state: string };
}

describe('every agent side by side (issue 24)', () => {
  const home = join(scratch, 'home');
  const cases = PROVIDERS.map((provider) => ({ provider, found: caseOf(provider.id) }));
  for (const { found } of cases) if (found !== null) cpSync(join(found.folder, 'home'), home, { recursive: true, preserveTimestamps: true });
  const now = cases.reduce((latest, { found }) => (found !== null && found.meta.now > latest ? found.meta.now : latest), '');
  // The terminal $TERMINAL names must be on PATH for a plan to use it: a stand-in that is never run
  // (`open --print` only plans), so the test reads the same on a machine without an xterm.
  const fakeBin = join(scratch, 'bin');
  mkdirSync(fakeBin, { recursive: true });
  writeFileSync(join(fakeBin, 'xterm'), '#!/bin/sh\nexit 1\n', { mode: 0o755 });
  const env = {
    HOME: home,
    LOOKOUT_HOME: join(scratch, 'lookout'),
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    TERMINAL: 'xterm',
    PATH: `${fakeBin}:${process.env.PATH ?? ''}`,
  };

  it('each agent in the registry has a recording of the real agent to read', () => {
    expect(cases.filter(({ found }) => found === null).map(({ provider }) => provider.id)).toEqual([]);
  });

  it('R13 `lookout status --all` shows a row of each of the ten agents, from one home, each ended as its recording says', () => {
    const result = runCli(['status', '--json', '--all', '--now', now], env);
    expect(result.code, result.stderr).toBe(0);
    const rows = (JSON.parse(result.stdout) as { sessions: Row[] }).sessions;
    expect(PROVIDERS.length).toBe(10);
    for (const { provider, found } of cases)
      expect(
        rows.map((row) => row.key),
        provider.id,
      ).toContain(found?.meta.sessionKey);
    expect(new Set(rows.map((row) => row.provider))).toEqual(new Set(PROVIDERS.map((provider) => provider.id)));
    for (const row of rows) expect(row.observed.state, row.key).toBe('ended');
  });

  it('`open --print` resumes each with its own command in its folder (no process left to focus)', () => {
    const rows = (JSON.parse(runCli(['status', '--json', '--all', '--now', now], env).stdout) as { sessions: Row[] }).sessions;
    for (const provider of PROVIDERS) {
      const row = rows.find((item) => item.provider === provider.id);
      if (row === undefined || row.cwd === null) throw new Error(`no row with a folder for ${provider.id}`);
      // The lab's folders are gone: made again (empty), as the user's project would be there.
      // mkdirSync names the first folder it made: the lab's whole temporary folder, removed after.
      const first = existsSync(row.cwd) ? undefined : mkdirSync(row.cwd, { recursive: true });
      if (first !== undefined) made.push(first);
      const result = runCli(['open', '--print', row.key, '--now', now], env);
      expect(result.code, `${provider.id}: ${result.stderr}`).toBe(0);
      const plan = JSON.parse(result.stdout) as { kind: string; steps: { argv: string[]; cwd: string }[] };
      expect(plan.kind, provider.id).toBe('terminal');
      expect(plan.steps[0]?.cwd).toBe(row.cwd);
      expect(plan.steps[0]?.argv.slice(-provider.resume(row.sessionId).length), provider.id).toEqual(provider.resume(row.sessionId));
    }
  });
});
