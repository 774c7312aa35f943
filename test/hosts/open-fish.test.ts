// Issue 25 item 1: opening another machine's row when that machine's login shell is fish — a real
// fish, the login shell sshd itself runs the command with (the test sshd sees a passwd naming it).
// Only `<command> open-here <key>` crosses that shell; the folder never does.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../main/cli-process';
import { claudeSession, machine } from './machines';
import type { Sshd } from './sshd';
import { loginShellUnavailable, sshUnavailable, startSshd } from './sshd';

const FISH = ['/usr/bin/fish', '/bin/fish', '/usr/local/bin/fish'].find((path) => existsSync(path)) ?? '/usr/bin/fish';
const base = mkdtempSync(join(tmpdir(), 'lookout-fish-'));
const unavailable = sshUnavailable() ?? loginShellUnavailable(FISH);
if (unavailable !== null) console.log(`opening through a fish login shell skipped: ${unavailable}`);
let sshd: Sshd | null = null;

beforeAll(async () => {
  if (unavailable === null) sshd = await startSshd(join(base, 'sshd'), ['fishbox'], FISH);
}, 60_000);
afterAll(async () => {
  await sshd?.stop();
  rmSync(base, { recursive: true, force: true });
});

/** A folder name that fish, handed it in POSIX single quotes, reads as a command (`\'` ends the quote there). */
function hostileFolder(root: string, marker: string): string {
  const folder = join(root, `it\\'; touch ${marker}; echo \\'s`);
  mkdirSync(folder, { recursive: true });
  return folder;
}

/** This machine, opening rows of `fishbox`; a terminal program on PATH that is never run (--print). */
function laptop() {
  const here = machine(base, 'laptop');
  const bin = join(here.dir, 'bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'xterm'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
  const env = { ...here.env, LOOKOUT_SSH_CONFIG: sshd?.config ?? '', TERMINAL: 'xterm', PATH: `${bin}:${process.env.PATH ?? ''}` };
  return { env };
}

/** The ssh argv `open --print` planned for a row there (the terminal's own words dropped). */
function plannedSsh(env: Record<string, string>, key: string): string[] {
  const result = runCli(['open', `fishbox:${key}`, '--print'], env);
  expect(result.code, result.stderr).toBe(0);
  const plan = JSON.parse(result.stdout) as { kind: string; steps: { argv: string[] }[] };
  expect(plan.kind).toBe('terminal');
  const argv = plan.steps[0]?.argv ?? [];
  return argv.slice(argv.indexOf('ssh') + 1);
}

describe.skipIf(unavailable !== null)('issue 25 item 1: opening a row of a machine whose login shell is fish', () => {
  it("issue 25 item 1: the test host's login shell is fish", () => {
    const said = execFileSync('ssh', ['-F', sshd?.config ?? '', '-T', '-o', 'BatchMode=yes', 'fishbox', 'echo $version'], { encoding: 'utf8' });
    expect(said.trim()).toMatch(/^\d+\.\d+/);
  });

  it("issue 25 item 1: a folder holding \\' runs nothing there; the resume command starts in that very folder", () => {
    const here = laptop();
    const fishbox = machine(base, 'fishbox');
    const marker = join(fishbox.dir, 'PWNED');
    const folder = hostileFolder(fishbox.dir, marker);
    const key = claudeSession(fishbox.env.CLAUDE_CONFIG_DIR, 'long-finish', 30_000, folder);
    // The agent there: prints where it started and what it was given.
    const agents = join(fishbox.dir, 'agents');
    mkdirSync(agents, { recursive: true });
    writeFileSync(join(agents, 'claude'), '#!/bin/sh\npwd -P\nprintf "%s\\n" "$@"\n', { mode: 0o755 });
    expect(runCli(['hosts', 'add', 'fishbox', '--command', fishbox.command({ PATH: `${agents}:${process.env.PATH ?? ''}` })], here.env).code).toBe(0);
    const ssh = plannedSsh(here.env, key);
    const opened = spawnSync('ssh', ssh, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    expect(existsSync(marker)).toBe(false);
    expect(opened.status, opened.stderr).toBe(0);
    expect(opened.stdout.trim().split('\n')).toEqual([realpathSync(folder), '--resume', key.slice('claude:'.length)]);
    // What reached the login shell: the user's own command and plain words.
    expect(ssh.at(-1)).toMatch(/ open-here claude:[A-Za-z0-9-]+$/);
  }, 60_000);

  it('issue 25 item 1: a live session there gets a login shell (fish, $SHELL) in its folder', () => {
    const here = laptop();
    const fishbox = machine(base, 'fishbox');
    const marker = join(fishbox.dir, 'PWNED');
    const folder = hostileFolder(fishbox.dir, marker);
    const key = claudeSession(fishbox.env.CLAUDE_CONFIG_DIR, 'working', 2_000, folder);
    expect(runCli(['hosts', 'add', 'fishbox', '--command', fishbox.command()], here.env).code).toBe(0);
    const ssh = plannedSsh(here.env, key);
    // The login shell reads its commands from the input ssh forwards: it says where it is, and which shell it is.
    const opened = spawnSync('ssh', ssh, { encoding: 'utf8', input: 'pwd -P; echo fish $version\n', stdio: ['pipe', 'pipe', 'pipe'] });
    expect(existsSync(marker)).toBe(false);
    expect(opened.status, opened.stderr).toBe(0);
    const lines = opened.stdout.trim().split('\n');
    expect(lines).toContain(realpathSync(folder));
    expect(lines.some((line) => /^fish \d+\.\d+/.test(line))).toBe(true);
  }, 60_000);
});
