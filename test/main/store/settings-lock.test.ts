// Issue 25 item 6: settings.json lost concurrent updates — sixteen simultaneous `rules add` each
// said "added" but 4–7 rules remained; `hosts add` the same; the popover's settings view writes the
// same file. Real processes, all started at once.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultSettings } from '../../../src/engine';
import { updateSettings } from '../../../src/main/store/settings-store';
import type { CliResult } from '../cli-process';
import { CLI } from '../cli-process';

const base = mkdtempSync(join(tmpdir(), 'lookout-settings-lock-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

function home(): Record<string, string> {
  const dir = mkdtempSync(join(base, 'case-'));
  const env = { LOOKOUT_HOME: join(dir, 'home'), HOME: dir, CLAUDE_CONFIG_DIR: join(dir, 'claude'), CODEX_HOME: join(dir, 'codex') };
  mkdirSync(env.LOOKOUT_HOME, { recursive: true, mode: 0o700 });
  return env;
}

/** The command line as a process of its own, not waited for. */
function start(args: string[], env: Record<string, string>): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

interface Written {
  rules?: { id: string; when: { folder?: string } }[];
  hosts: { name: string }[];
  quietHours: unknown;
}
const written = (env: Record<string, string>): Written => JSON.parse(readFileSync(join(env.LOOKOUT_HOME ?? '', 'settings.json'), 'utf8')) as Written;
const SIXTEEN = Array.from({ length: 16 }, (_, index) => index + 1);

describe('settings.json under concurrent writers (issue 25 item 6)', () => {
  it('issue 25 item 6: sixteen simultaneous `rules add` keep sixteen rules, each with its own id', async () => {
    const env = home();
    const results = await Promise.all(SIXTEEN.map((n) => start(['rules', 'add', '--folder', `/work/p${n}/**`, '--mute'], env)));
    for (const result of results) expect(result).toMatchObject({ code: 0, stderr: '' });
    const said = results.map((result) => /^added: (\S+) v1: folder (\S+) → mute\n$/.exec(result.stdout)?.slice(1) ?? []);
    const rules = written(env).rules ?? [];
    // The shipped rule, and every rule a process said it added, as it said it.
    expect(rules).toHaveLength(17);
    expect(new Set(rules.map((rule) => rule.id)).size).toBe(17);
    expect(said.map(([id, folder]) => rules.find((rule) => rule.id === id)?.when.folder === folder)).toEqual(SIXTEEN.map(() => true));
  }, 90_000);

  it('issue 25 item 6: sixteen simultaneous `hosts add`, with `rules add` and the popover writing beside them, lose nothing', async () => {
    const env = home();
    const processes = [
      ...SIXTEEN.map((n) => start(['hosts', 'add', `box${n}`], env)),
      ...SIXTEEN.slice(0, 4).map((n) => start(['rules', 'add', '--provider', 'codex', '--notify', 'never', '--id', `cli-${n}`], env)),
    ];
    // The popover's settings view: the same read-modify-write, from this process, meanwhile.
    for (const n of SIXTEEN.slice(0, 4)) {
      updateSettings(env.LOOKOUT_HOME ?? '', Date.now(), (file) => ({
        ...file,
        rules: [...(file.rules ?? defaultSettings().rules), { id: `popover-${n}`, version: 1, when: { folder: `/pop/${n}` }, mute: true }],
      }));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const results = await Promise.all(processes);
    for (const result of results) expect(result).toMatchObject({ code: 0, stderr: '' });
    const file = written(env);
    expect(file.hosts.map((host) => host.name).sort()).toEqual(SIXTEEN.map((n) => `box${n}`).sort());
    expect((file.rules ?? []).map((rule) => rule.id).sort()).toEqual(
      ['outdated-after-7d', ...SIXTEEN.slice(0, 4).flatMap((n) => [`cli-${n}`, `popover-${n}`])].sort(),
    );
  }, 90_000);

  it('issue 25 item 6: the same name added twice at once: one is added, the other says it exists (exit 2)', async () => {
    const env = home();
    const results = await Promise.all([1, 2, 3, 4].map(() => start(['rules', 'add', '--folder', '/same/**', '--mute', '--id', 'same'], env)));
    expect(results.map((result) => result.code).sort()).toEqual([0, 2, 2, 2]);
    expect(results.filter((result) => result.code === 2).map((result) => result.stderr)).toEqual(
      Array.from({ length: 3 }, () => 'lookout: a rule "same" exists already (rules remove same first, or --id another)\n'),
    );
    expect((written(env).rules ?? []).map((rule) => rule.id)).toEqual(['outdated-after-7d', 'same']);
  }, 90_000);
});
