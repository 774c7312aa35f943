// Issue 25: a host may not be named `local`, the word rules use for this machine (`--host local`).
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli-process';

const base = mkdtempSync(join(tmpdir(), 'lookout-local-host-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('issue 25: hosts add refuses the name "local"', () => {
  it('issue 25 (small): a host named local, by --name or from its destination, is refused with exit 2 and nothing is written', () => {
    const env = { HOME: base, LOOKOUT_HOME: join(base, 'lookout') };
    for (const args of [['devbox', '--name', 'local'], ['local'], ['me@local']]) {
      const result = runCli(['hosts', 'add', ...args], env);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toContain('a host may not be named "local" (rules\' --host local means this machine)');
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
    }
    const settings = join(env.LOOKOUT_HOME, 'settings.json');
    expect(existsSync(settings) ? ((JSON.parse(readFileSync(settings, 'utf8')) as { hosts?: unknown[] }).hosts ?? []) : []).toEqual([]);
    // Any other name is taken as before.
    expect(runCli(['hosts', 'add', 'devbox', '--name', 'locally'], env).code).toBe(0);
  });
});
