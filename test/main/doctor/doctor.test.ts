// `lookout doctor`: what Lookout sees, run as the built command line in temporary homes. Agent
// folders set by their variables (found or not), settings kept aside, a host that refuses the
// connection, a bad argument, and (with a notification daemon) `--notify`'s real notification.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { displayOf, electronBinary } from '../../../src/main/doctor/desktop';
import type { DoctorReport } from '../../../src/main/doctor/report';
import { PROVIDERS } from '../../../src/providers';
import { CLI, runCli } from '../cli-process';
import { missingTools, poll, startDunst, virtualDisplay } from '../dunst-session';
import { fixtureHomes } from '../fixture-home';

const homes = fixtureHomes('lookout-doctor-');

function doctor(args: string[], env: Record<string, string>): { code: number | null; report: DoctorReport; stderr: string } {
  const result = runCli(['doctor', '--json', ...args], env);
  expect(result.stdout.split('\n').filter((line) => line !== '')).toHaveLength(1);
  return { code: result.code, report: JSON.parse(result.stdout) as DoctorReport, stderr: result.stderr };
}

const agent = (report: DoctorReport, id: string) => {
  const found = report.agents.find((item) => item.id === id);
  if (found === undefined) throw new Error(`no agent ${id} in the report`);
  return found;
};

/** A port nothing listens on: one the system gave and took back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  await new Promise<void>((done) => server.close(() => done()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

const hasSsh = spawnSync('sh', ['-c', 'command -v ssh']).status === 0;
if (!hasSsh) console.log('doctor host test skipped: ssh is not installed (.ci/run installs it)');

describe('lookout doctor', () => {
  it('names the variable that set each folder, found or not; a chosen folder that is missing is a problem (exit 1)', () => {
    // The fixture home: CLAUDE_CONFIG_DIR holds a session; CODEX_HOME points where nothing is.
    const env = homes.home(['working']);
    const { code, report, stderr } = doctor([], env);
    expect(stderr).toBe('');
    expect(code).toBe(1);
    expect(report.agents.map((item) => item.id)).toEqual(PROVIDERS.map((provider) => provider.id));
    expect(agent(report, 'claude')).toMatchObject({
      folder: env.CLAUDE_CONFIG_DIR,
      variable: 'CLAUDE_CONFIG_DIR',
      source: 'variable',
      from: `CLAUDE_CONFIG_DIR=${env.CLAUDE_CONFIG_DIR}`,
      found: true,
      sessions: 1,
    });
    expect(agent(report, 'claude').hooks).toMatchObject({ state: 'not installed' });
    expect(agent(report, 'codex')).toMatchObject({ folder: env.CODEX_HOME, variable: 'CODEX_HOME', source: 'variable', found: false, sessions: null });
    // An agent left to its default is simply not found: no problem.
    expect(agent(report, 'qwen')).toMatchObject({
      folder: join(env.HOME ?? '', '.qwen'),
      variable: null,
      source: 'default',
      from: 'default; QWEN_HOME not set',
      found: false,
    });
    expect(report.problems).toEqual([{ what: expect.stringContaining(`CODEX_HOME=${env.CODEX_HOME}`), hint: expect.stringContaining('CODEX_HOME') }]);
    expect(report).toMatchObject({
      lookout: { version: expect.any(String) },
      node: { version: process.version },
      platform: { os: process.platform, arch: process.arch },
      hosts: [],
      state: { home: env.LOOKOUT_HOME, variable: 'LOOKOUT_HOME' },
    });
    expect(Object.keys(report)).toEqual(['lookout', 'node', 'platform', 'agents', 'reading', 'tray', 'notifications', 'state', 'hosts', 'phone', 'problems']);
  });

  it('exit 0 with an agent found and the rest at their defaults; the screen says each section plainly', () => {
    const { CLAUDE_CONFIG_DIR, LOOKOUT_HOME, HOME } = homes.home(['working']);
    const env = { CLAUDE_CONFIG_DIR: CLAUDE_CONFIG_DIR ?? '', LOOKOUT_HOME: LOOKOUT_HOME ?? '', HOME: HOME ?? '' };
    const { code, report } = doctor([], env);
    expect(report.problems).toEqual([]);
    expect(code).toBe(0);
    // No display in the test's environment: the tray says so, and what to use instead.
    expect(report.tray).toMatchObject({ available: false, display: null, why: expect.stringContaining('no display') });
    expect(report.notifications.sent).toBeUndefined();
    const text = runCli(['doctor'], env);
    expect(text.code).toBe(0);
    const lines = text.stdout.split('\n');
    expect(lines[0]).toMatch(/^lookout \S+, node v\d+\.\d+\.\d+, \S+ \S+$/);
    for (const heading of ['agents', 'tray', 'notifications', "Lookout's state", 'hosts', 'problems']) expect(lines).toContain(heading);
    expect(text.stdout).toContain('not available (no display: DISPLAY and WAYLAND_DISPLAY are not set); use `lookout watch` or `lookout serve`');
    expect(text.stdout).toMatch(/claude +found, 1 session; hooks not installed/);
    expect(text.stdout).toContain('not found: ~/.codex (default; CODEX_HOME not set)');
    expect(text.stdout).toContain('set CODEX_HOME if Codex keeps its files elsewhere');
    expect(text.stdout).toContain('  no hosts');
    expect(text.stdout).toMatch(/problems\n {2}none\n$/);
    expect(text.stdout).not.toMatch(/\u001b/);
  });

  it('hooks as `hooks status` sees them: installed after install; a hooks file that cannot be read is a problem', () => {
    const env = homes.home(['working']);
    delete env.CODEX_HOME;
    expect(runCli(['hooks', 'install', '--provider', 'claude'], env).code).toBe(0);
    const installed = doctor([], env);
    expect(agent(installed.report, 'claude').hooks).toMatchObject({ state: 'installed', lines: [expect.stringMatching(/^installed in /)] });
    expect(installed.code).toBe(0);
    writeFileSync(join(env.CLAUDE_CONFIG_DIR ?? '', 'settings.json'), '{ "hooks": ');
    const broken = doctor([], env);
    expect(agent(broken.report, 'claude').hooks?.state).toBe('unknown');
    expect(broken.code).toBe(1);
    expect(broken.report.problems).toEqual([
      {
        what: expect.stringMatching(/^claude: its hooks cannot be read: .*settings\.json is not valid JSON/),
        hint: expect.stringContaining('lookout hooks status --provider claude'),
      },
    ]);
  });

  it("the tray's parts: a display from DISPLAY or WAYLAND_DISPLAY, Electron's binary from path.txt, never downloaded", () => {
    expect(displayOf({}, 'linux')).toBeNull();
    expect(displayOf({ DISPLAY: ':1' }, 'linux')).toBe('DISPLAY=:1');
    expect(displayOf({ DISPLAY: ':1', WAYLAND_DISPLAY: 'wayland-0' }, 'linux')).toBe('WAYLAND_DISPLAY=wayland-0');
    expect(displayOf({}, 'darwin')).toBe('desktop');
    const root = join(homes.base, 'electron-install');
    const from = join(root, 'lib', 'cli.cjs');
    const electron = join(root, 'node_modules', 'electron');
    mkdirSync(join(electron, 'dist'), { recursive: true });
    writeFileSync(join(electron, 'package.json'), JSON.stringify({ name: 'electron', main: 'index.js' }));
    // No path.txt: its binary was never downloaded.
    expect(electronBinary({}, from)).toBeNull();
    writeFileSync(join(electron, 'path.txt'), 'electron');
    expect(electronBinary({}, from)).toBeNull();
    writeFileSync(join(electron, 'dist', 'electron'), '');
    expect(electronBinary({}, from)).toBe(join(electron, 'dist', 'electron'));
    expect(electronBinary({}, join(homes.base, 'nowhere', 'cli.cjs'))).toBeNull();
  });

  it('no agent found at all is a problem', () => {
    const { LOOKOUT_HOME, HOME } = homes.home([]);
    const { code, report } = doctor([], { LOOKOUT_HOME: LOOKOUT_HOME ?? '', HOME: HOME ?? '' });
    expect(code).toBe(1);
    expect(report.agents.every((item) => !item.found)).toBe(true);
    expect(report.problems.map((problem) => problem.what)).toEqual([expect.stringContaining("no agent's folder was found")]);
  });

  it('a settings file that cannot be used is kept aside, and said so with a hint', () => {
    const env = homes.home(['working']);
    delete env.CODEX_HOME;
    mkdirSync(env.LOOKOUT_HOME ?? '', { recursive: true, mode: 0o700 });
    writeFileSync(join(env.LOOKOUT_HOME ?? '', 'settings.json'), '{ not json');
    const { code, report } = doctor(['--now', '2026-11-29T12:00:00Z'], env);
    expect(code).toBe(1);
    expect(report.state.settings).toMatchObject({ state: 'kept aside', lines: [expect.stringContaining('kept aside as')] });
    expect(report.problems).toEqual([{ what: expect.stringContaining('settings.json could not be used'), hint: expect.stringContaining('defaults') }]);
  });

  it.skipIf(!hasSsh)('a host that refuses the connection: unreachable, with the reason', async () => {
    const env = homes.home(['working']);
    delete env.CODEX_HOME;
    const sshConfig = join(homes.base, 'empty-ssh-config');
    writeFileSync(sshConfig, '');
    const port = await closedPort();
    const withSsh = { ...env, LOOKOUT_SSH_CONFIG: sshConfig };
    expect(runCli(['hosts', 'add', '127.0.0.1', '--name', 'closed', '--port', String(port)], withSsh).code).toBe(0);
    const { code, report } = doctor([], withSsh);
    expect(code).toBe(1);
    expect(report.hosts).toEqual([
      {
        name: 'closed',
        destination: '127.0.0.1',
        state: expect.stringMatching(/^(unreachable|failed)$/),
        reason: expect.stringMatching(/refused/i),
        sessions: null,
        lookout: null,
      },
    ]);
    expect(report.problems).toEqual([{ what: expect.stringContaining('host closed (127.0.0.1)'), hint: expect.stringContaining('docs/hosts.md') }]);
    const text = runCli(['doctor'], withSsh);
    expect(text.stdout).toMatch(/\n {2}closed {2}(unreachable|failed)[^\n]*refused[^\n]*\(ssh 127\.0\.0\.1\)\n/i);
  });

  it('a bad argument: exit 2 and one line', () => {
    const env = homes.home([]);
    for (const args of [['--bogus'], ['extra'], ['--now', 'yesterday']]) {
      const result = runCli(['doctor', ...args], env);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/^lookout: [^\n]+\n$/);
    }
  });

  it('--notify without a notification daemon: not shown, with the reason, a problem (exit 1)', () => {
    const { CLAUDE_CONFIG_DIR, LOOKOUT_HOME, HOME } = homes.home(['working']);
    // No D-Bus session and no display: notify-send cannot reach any daemon.
    const { code, report } = doctor(['--notify'], { CLAUDE_CONFIG_DIR: CLAUDE_CONFIG_DIR ?? '', LOOKOUT_HOME: LOOKOUT_HOME ?? '', HOME: HOME ?? '' });
    expect(report.notifications).toMatchObject({ sent: false, error: expect.any(String) });
    expect(code).toBe(1);
    expect(report.problems).toEqual([{ what: expect.stringContaining('the test notification was not shown'), hint: expect.any(String) }]);
  });
});

const missing = missingTools();
if (missing.length > 0) console.log(`doctor --notify delivery test skipped: missing ${missing.join(', ')} (.ci/run installs them)`);
const { display, ready } = virtualDisplay(50);

describe.skipIf(missing.length > 0 || process.platform !== 'linux')('lookout doctor --notify with a notification daemon (Xvfb + dbus + dunst)', () => {
  it('sends one real notification, which the daemon shows; exit 0', async () => {
    await ready();
    const { CLAUDE_CONFIG_DIR, LOOKOUT_HOME, HOME } = homes.home(['working']);
    const out = join(homes.base, 'doctor-notify.json');
    const env = {
      PATH: process.env.PATH ?? '',
      CLAUDE_CONFIG_DIR: CLAUDE_CONFIG_DIR ?? '',
      LOOKOUT_HOME: LOOKOUT_HOME ?? '',
      HOME: HOME ?? '',
      DISPLAY: display,
    };
    // One D-Bus session holds dunst, doctor and the history query (closed notifications only); each step waits for its condition.
    const script = [
      ...startDunst(null),
      `"${process.execPath}" "${CLI}" doctor --notify --json > "${out}"; echo "doctor exited $?"`,
      poll('{ dunstctl close-all; dunstctl history | grep -q "test notification"; }'),
      'dunstctl history',
      'kill $DUNST',
    ].join('\n');
    const result = spawnSync('dbus-run-session', ['--', 'sh', '-c', script], { env, encoding: 'utf8', timeout: 50_000 });
    const report = JSON.parse(readFileSync(out, 'utf8')) as DoctorReport;
    expect(report.notifications).toMatchObject({ program: 'notify-send', available: true, sent: true });
    expect(report.problems).toEqual([]);
    expect(result.stdout).toContain('doctor exited 0');
    expect(result.stdout).toContain('Lookout: a test notification');
  }, 90_000);
});
