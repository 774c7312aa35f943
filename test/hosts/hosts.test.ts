// Issue 13: other machines in one list, over a real OpenSSH server. The "remotes" are this machine
// reached through sshd on 127.0.0.1, each with its own LOOKOUT_HOME and agent folders, running the
// built CLI's `feed` (their `--command`).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NotificationPlan, Row, Snapshot } from '../../src/engine';
import type { Notifier } from '../../src/main/notify/notifier';
import { Runtime } from '../../src/main/runtime/runtime';
import { PopoverHost } from '../../src/main/popover/popover-host';
import { runCli } from '../main/cli-process';
import { WatchProcess } from '../main/watch-process';
import { serve } from '../main/serve-process';
import { CHROMIUM, launch } from '../popover/browser';
import type { Sshd } from './sshd';
import { CLI, sshUnavailable, startSshd } from './sshd';
import { claudeSession } from './machines';
import { findAnswerHook } from '../../src/providers';
import { askLookout } from '../../src/main/answer/hook-client';
import { writeSpool } from '../../src/main/hooks/spool-writer';
import { waitFor } from '../wait';

const base = mkdtempSync(join(tmpdir(), 'lookout-hosts-'));
const unavailable = sshUnavailable();
if (unavailable !== null) console.log(`host tests over ssh skipped: ${unavailable}`);
let sshd: Sshd | null = null;

beforeAll(async () => {
  if (unavailable === null) sshd = await startSshd(join(base, 'sshd'), ['devbox', 'gpubox']);
}, 60_000);
afterAll(async () => {
  await sshd?.stop();
  rmSync(base, { recursive: true, force: true });
});

let n = 0;

/** A machine's folders: its Lookout home and its agents' roots. */
function machine(name: string) {
  n += 1;
  const dir = join(base, `${name}-${n}`);
  const env = {
    HOME: dir,
    LOOKOUT_HOME: join(dir, 'lookout'),
    CLAUDE_CONFIG_DIR: join(dir, 'claude'),
    CODEX_HOME: join(dir, 'codex'),
    COPILOT_HOME: join(dir, 'copilot'),
    OPENCODE_DATA_DIR: join(dir, 'opencode'),
  };
  mkdirSync(env.CLAUDE_CONFIG_DIR, { recursive: true });
  const command = ['env', ...Object.entries(env).map(([key, value]) => `${key}=${value}`), process.execPath, CLI].join(' ');
  return { dir, env, command };
}

/** A Claude fixture's transcript, its times moved so its last record is `agoMs` old. */
const session = (root: string, fixture: string, agoMs: number): string => claudeSession(root, fixture, agoMs);

function local(extra: Record<string, string> = {}) {
  const here = machine('laptop');
  const env = { ...here.env, LOOKOUT_SSH_CONFIG: sshd?.config ?? '', ...extra };
  const add = (args: string[]) => {
    const result = runCli(['hosts', 'add', ...args], env);
    expect(result.code, result.stderr).toBe(0);
  };
  return { ...here, env, add };
}

const statusRows = (env: Record<string, string>): { rows: Row[]; stderr: string } => {
  const result = runCli(['status', '--json', '--all'], env);
  expect(result.code, result.stderr).toBe(0);
  return { rows: (JSON.parse(result.stdout) as Snapshot).sessions, stderr: result.stderr };
};

describe('lookout hosts add|list|remove', () => {
  it('adds, lists and removes hosts in settings.json; bad input exits 2 saying what is wrong', () => {
    const here = local();
    here.add(['devbox', '--port', '2222', '--command', 'node ~/lookout/dist/cli.cjs']);
    const settings = JSON.parse(readFileSync(join(here.env.LOOKOUT_HOME, 'settings.json'), 'utf8')) as { hosts: unknown[] };
    expect(settings.hosts).toEqual([{ name: 'devbox', destination: 'devbox', port: 2222, command: 'node ~/lookout/dist/cli.cjs' }]);
    for (const [args, message] of [
      [['--', '-oProxyCommand=touch /tmp/pwned'], 'not an ssh destination'],
      [['devbox'], 'exists already'],
      [['me@claude.example.com', '--name', 'claude'], "a provider's id"],
      [['gpubox', '--port', '99999'], '--port takes a port number'],
      [['gpubox', '--name', '../etc'], 'not a host name'],
    ] as const) {
      const result = runCli(['hosts', 'add', ...args], here.env);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toContain(message);
    }
    expect(runCli(['hosts', 'remove', 'nowhere'], here.env).code).toBe(2);
    expect(runCli(['hosts', 'remove', 'devbox'], here.env).code).toBe(0);
    expect(runCli(['hosts', 'list'], here.env).stdout).toContain('no hosts');
  });

  it('lookout feed interrupted while its input is still open stops (it does not wait for the end of its input)', async () => {
    const there = machine('devbox');
    session(there.env.CLAUDE_CONFIG_DIR, 'long-finish', 30_000);
    const feed = spawn(process.execPath, [CLI, 'feed'], { env: { PATH: process.env.PATH ?? '', ...there.env }, stdio: ['pipe', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((done) => feed.once('exit', (code) => done(code)));
    await new Promise<void>((done) => feed.stdout.once('data', () => done()));
    feed.kill('SIGINT');
    expect(await Promise.race([exited, new Promise<string>((done) => setTimeout(() => done('still running'), 20_000))])).toBe(0);
    feed.stdin.destroy();
  });
});

describe.skipIf(unavailable !== null)('hosts over a real sshd', () => {
  it('rows from two hosts and this machine, merged in one triage order; each says its host; keys carry the host', () => {
    const here = local();
    const devbox = machine('devbox');
    const gpubox = machine('gpubox');
    const mine = session(here.env.CLAUDE_CONFIG_DIR, 'long-finish', 30_000);
    const working = session(devbox.env.CLAUDE_CONFIG_DIR, 'working', 2_000);
    const asking = session(gpubox.env.CLAUDE_CONFIG_DIR, 'question-pending', 60_000);
    here.add(['devbox', '--command', devbox.command]);
    here.add(['gpubox', '--command', gpubox.command]);
    const { rows } = statusRows(here.env);
    expect(rows.map((row) => [row.key, row.host])).toEqual([
      // needs you first, then the finished turn to review, then the working one (R31).
      [`gpubox:${asking}`, 'gpubox'],
      [mine, null],
      [`devbox:${working}`, 'devbox'],
    ]);
    expect(rows[0]?.observed).toMatchObject({ state: 'awaiting-input', reason: 'question-pending' });
    const listed = runCli(['hosts', 'list'], here.env);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/devbox {2}connected, 1 sessions/);
  });

  it("a review set here lands in the remote machine's own store; mute and unmute too", () => {
    const here = local();
    const devbox = machine('devbox');
    const key = session(devbox.env.CLAUDE_CONFIG_DIR, 'long-finish', 30_000);
    here.add(['devbox', '--command', devbox.command]);
    const review = runCli(['review', `devbox:${key}`, 'reviewed'], here.env);
    expect(review.code, review.stderr).toBe(0);
    expect(review.stdout).toContain(`devbox:${key}: review reviewed`);
    const store = JSON.parse(readFileSync(join(devbox.env.LOOKOUT_HOME, 'store.json'), 'utf8')) as { reviews: Record<string, { state: string }> };
    expect(store.reviews[key]?.state).toBe('reviewed');
    // Nothing of it is kept here: the facts live with the session.
    expect(existsSync(join(here.env.LOOKOUT_HOME, 'store.json')) ? readFileSync(join(here.env.LOOKOUT_HOME, 'store.json'), 'utf8') : '').not.toContain(key);
    // The remote's own Lookout agrees.
    const there = runCli(['status', '--json', '--all'], devbox.env);
    expect((JSON.parse(there.stdout) as Snapshot).sessions[0]?.review.state).toBe('reviewed');
    expect(runCli(['mute', `devbox:${key}`, '--for', '1h'], here.env).code).toBe(0);
    expect(statusRows(here.env).rows[0]?.muted).not.toBeNull();
    expect(runCli(['unmute', `devbox:${key}`], here.env).code).toBe(0);
    // An attention call there makes it the next session here (R33 over every machine's rows).
    const attention = runCli(['attention', `devbox:${key}`, 'look at the diff'], here.env);
    expect(attention.code, attention.stderr).toBe(0);
    const stored = JSON.parse(readFileSync(join(devbox.env.LOOKOUT_HOME, 'store.json'), 'utf8')) as { attentionCalls: Record<string, { message: string }> };
    expect(stored.attentionCalls[key]?.message).toBe('look at the diff');
    const next = runCli(['next', '--json'], here.env);
    expect(next.code, next.stderr).toBe(0);
    expect(JSON.parse(next.stdout)).toMatchObject({ waiting: 1, next: { key: `devbox:${key}`, host: 'devbox' } });
    // A session that is not there is refused there, and said so here.
    const refused = runCli(['review', `devbox:claude:00000000-0000-4000-8000-000000000000`, 'reviewed'], here.env);
    expect(refused.code).toBe(2);
  });

  it('watch: an append on the remote reaches the local snapshot', async () => {
    const here = local();
    const devbox = machine('devbox');
    const key = session(devbox.env.CLAUDE_CONFIG_DIR, 'working', 1_000);
    here.add(['devbox', '--command', devbox.command]);
    const watch = new WatchProcess(['--all'], here.env);
    try {
      await watch.until((snapshot) => snapshot.sessions.some((row) => row.key === `devbox:${key}` && row.observed.state === 'running'));
      const project = join(devbox.env.CLAUDE_CONFIG_DIR, 'projects', '-home-me-app');
      const file = join(project, `${key.slice('claude:'.length)}.jsonl`);
      const id = key.slice('claude:'.length);
      writeFileSync(
        file,
        `${JSON.stringify({ parentUuid: null, isSidechain: false, type: 'assistant', message: { role: 'assistant', model: 'claude', content: [{ type: 'text', text: 'Done.' }], stop_reason: 'end_turn' }, uuid: 'f9000000-0000-4000-8000-000000000001', timestamp: new Date().toISOString(), cwd: '/home/me/app', sessionId: id, version: '2.1.143' })}\n`,
        { flag: 'a' },
      );
      await watch.until((snapshot) => snapshot.sessions.some((row) => row.key === `devbox:${key}` && row.observed.reason === 'turn-finished'));
    } finally {
      await watch.stop();
    }
  });

  it("open --print: a terminal here running ssh -t there, with only plain words for the remote shell; that machine's Lookout resumes it in its folder", () => {
    // A terminal program on PATH (never run: --print only plans).
    const bin = join(base, `bin-${n}`);
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, 'xterm'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    const here = local({ TERMINAL: 'xterm', PATH: `${bin}:${process.env.PATH ?? ''}` });
    const devbox = machine('devbox');
    const key = session(devbox.env.CLAUDE_CONFIG_DIR, 'long-finish', 30_000);
    const project = join(devbox.env.CLAUDE_CONFIG_DIR, 'projects', '-home-me-app');
    const file = join(project, `${key.slice('claude:'.length)}.jsonl`);
    const hostile = join(devbox.dir, "it's $(rm -rf ~) `x`");
    mkdirSync(hostile, { recursive: true });
    writeFileSync(file, readFileSync(file, 'utf8').replaceAll('"cwd":"/home/me/app"', `"cwd":${JSON.stringify(hostile)}`));
    here.add(['devbox', '--command', devbox.command]);
    const result = runCli(['open', `devbox:${key}`, '--print'], here.env);
    expect(result.code, result.stderr).toBe(0);
    const plan = JSON.parse(result.stdout) as { kind: string; steps: { argv: string[] }[] };
    expect(plan.kind).toBe('terminal');
    const argv = plan.steps[0]?.argv ?? [];
    expect(argv.slice(0, 2)).toEqual(['xterm', '-e']);
    const ssh = argv.indexOf('ssh');
    expect(argv.slice(ssh, ssh + 3)).toEqual(['ssh', '-t', '-o']);
    expect(argv.at(-2)).toBe('devbox');
    // The remote shell reads the user's own command and plain words: the folder never passes through it.
    expect(argv.at(-1)).toBe(`${devbox.command} open-here ${key}`);
    const there = runCli(['open-here', key, '--print'], devbox.env);
    expect(there.code, there.stderr).toBe(0);
    expect(JSON.parse(there.stdout)).toEqual({ kind: 'run', argv: ['claude', '--resume', key.slice('claude:'.length)], cwd: hostile });
    expect(runCli(['open-here', "claude:x'y", '--print'], devbox.env).code).toBe(2);
  });
});

describe.skipIf(unavailable !== null)('host faults, each a row state and one problem', () => {
  it('a host that refuses the key: failed, with ssh\'s reason; a host without lookout: "set --command"', () => {
    const here = local();
    here.add(['stranger', '--name', 'refuses', '--command', 'true']);
    here.add(['devbox', '--command', '/nonexistent/lookout']);
    const listed = runCli(['hosts', 'list'], here.env);
    expect(listed.code).toBe(1);
    expect(listed.stdout).toMatch(/refuses {2}failed: .*Permission denied \(publickey/);
    expect(listed.stdout).toContain('devbox  failed: lookout not found on devbox: set --command');
    const status = runCli(['status', '--json'], here.env);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stderr).toContain('host devbox failed: lookout not found on devbox: set --command');
  });

  it("a command naming this machine's session asks no host (a host that is down never delays it); one nothing here answers asks them", () => {
    const here = local();
    const key = session(here.env.CLAUDE_CONFIG_DIR, 'long-finish', 30_000);
    here.add(['devbox', '--command', '/nonexistent/lookout']);
    const prefix = key.slice('claude:'.length, 'claude:'.length + 8);
    for (const args of [
      ['review', prefix, 'reviewed'],
      ['mute', key],
      ['unmute', prefix],
      ['explain', prefix],
      ['open', '--print', prefix],
    ]) {
      const result = runCli(args, here.env);
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
      expect(result.stderr).toBe('');
    }
    const elsewhere = runCli(['review', 'ffffffff', 'reviewed'], here.env);
    expect(elsewhere.code).toBe(2);
    expect(elsewhere.stderr).toContain('host devbox failed: lookout not found on devbox: set --command');
    expect(elsewhere.stderr).toContain('no session matches "ffffffff"');
  });

  it('garbage, or a 50 MB line, from the remote: cut off with one problem; nothing of it shown', () => {
    const here = local();
    here.add(['devbox', '--name', 'garbage', '--command', "printf '<b>not a snapshot</b>\\n'; sleep 30; true"]);
    here.add(['gpubox', '--name', 'flood', '--command', "head -c 52428800 /dev/zero | tr '\\0' a; sleep 30; true"]);
    const status = runCli(['status', '--json'], here.env);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stderr).toContain('host garbage failed: garbage sent a line that is not a snapshot (not JSON); cut off');
    expect(status.stderr).toContain('host flood failed: flood sent a line over 33554432 bytes; cut off');
    expect(status.stdout).not.toContain('<b>');
    expect((JSON.parse(status.stdout) as Snapshot).sessions).toEqual([]);
  });

  it('sshd killed mid-stream: the rows stay, read unknown (host-unreachable), never counted; back when the host returns', async () => {
    const here = local({ LOOKOUT_SSH_KEEPALIVE: '1' });
    const devbox = machine('devbox');
    const key = session(devbox.env.CLAUDE_CONFIG_DIR, 'question-pending', 30_000);
    here.add(['devbox', '--command', devbox.command]);
    const watch = new WatchProcess(['--all'], here.env);
    const remoteKey = `devbox:${key}`;
    try {
      await watch.until((snapshot) => snapshot.sessions.some((row) => row.key === remoteKey && row.observed.state === 'awaiting-input'));
      expect(watch.snapshots.at(-1)?.attention.count).toBe(1);
      await sshd?.stop();
      const down = await watch.until(
        (snapshot) => snapshot.sessions.some((row) => row.key === remoteKey && row.observed.reason === 'host-unreachable'),
        30_000,
      );
      const row = down.sessions.find((item) => item.key === remoteKey);
      expect(row).toMatchObject({ host: 'devbox', claim: null, workflow: 'unknown', observed: { state: 'unknown', confidence: 'unknown' } });
      expect(row?.observed.detail).toMatch(/devbox unreachable since .* last snapshot 20\d\d-/);
      expect(down.attention.count).toBe(0);
      const seen = watch.snapshots.length;
      await sshd?.restart();
      // A snapshot after the outage (reconnected with backoff), not one from before it.
      await watch.until(
        (snapshot) =>
          watch.snapshots.indexOf(snapshot) >= seen && snapshot.sessions.some((row) => row.key === remoteKey && row.observed.state === 'awaiting-input'),
        90_000,
      );
      expect(watch.stderr).toContain('host devbox unreachable');
    } finally {
      await watch.stop();
    }
  }, 150_000);
});

/** Processes under a parent, all generations, with their command names. */
function descendants(pid: number): { pid: number; name: string }[] {
  const all = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((name) => {
      try {
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        const close = stat.lastIndexOf(')');
        return [{ pid: Number(name), name: stat.slice(stat.indexOf('(') + 1, close), ppid: Number(stat.slice(close + 2).split(' ')[1]) }];
      } catch {
        return [];
      }
    });
  const found: { pid: number; name: string }[] = [];
  const walk = (parent: number): void => {
    for (const item of all.filter((entry) => entry.ppid === parent)) {
      found.push({ pid: item.pid, name: item.name });
      walk(item.pid);
    }
  };
  walk(pid);
  return found;
}

/** The remote feed serving a machine: the process whose environment names that machine's Lookout home. */
function feedOf(home: string): number | null {
  for (const name of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      const environ = readFileSync(`/proc/${name}/environ`, 'utf8').split('\0');
      const args = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
      if (environ.includes(`LOOKOUT_HOME=${home}`) && args.includes('feed')) return Number(name);
    } catch {
      // Gone, or not ours to read.
    }
  }
  return null;
}

describe.skipIf(unavailable !== null)('host faults while watching', () => {
  it('the remote feed killed: unreachable, then reconnected with its rows', async () => {
    const here = local();
    const devbox = machine('devbox');
    const key = `devbox:${session(devbox.env.CLAUDE_CONFIG_DIR, 'long-finish', 30_000)}`;
    here.add(['devbox', '--command', devbox.command]);
    const watch = new WatchProcess(['--all'], here.env);
    try {
      await watch.until((snapshot) => snapshot.sessions.some((row) => row.key === key && row.observed.reason === 'turn-finished'));
      const feed = feedOf(devbox.env.LOOKOUT_HOME);
      expect(feed).not.toBeNull();
      process.kill(feed ?? 0, 'SIGKILL');
      await watch.until((snapshot) => snapshot.sessions.some((row) => row.key === key && row.observed.reason === 'host-unreachable'), 30_000);
      const seen = watch.snapshots.length;
      await watch.until(
        (snapshot) => watch.snapshots.indexOf(snapshot) >= seen && snapshot.sessions.some((row) => row.key === key && row.observed.reason === 'turn-finished'),
        60_000,
      );
      expect(watch.stderr).toMatch(/host devbox unreachable: the connection ended without a word \(its lookout feed killed/);
    } finally {
      await watch.stop();
    }
  }, 120_000);

  it('the remote stopped (SIGSTOP): keep-alives notice, the rows read unreachable; it comes back once it runs again', async () => {
    const here = local({ LOOKOUT_SSH_KEEPALIVE: '1' });
    const devbox = machine('devbox');
    const key = `devbox:${session(devbox.env.CLAUDE_CONFIG_DIR, 'long-finish', 30_000)}`;
    here.add(['devbox', '--command', devbox.command]);
    const watch = new WatchProcess(['--all'], here.env);
    const stopped: number[] = [];
    try {
      await watch.until((snapshot) => snapshot.sessions.some((row) => row.key === key && row.observed.reason === 'turn-finished'));
      // Every sshd process serving a connection stops answering (the listener still takes new ones).
      for (const item of descendants(sshd?.process.pid ?? 0)) {
        if (!item.name.startsWith('sshd')) continue;
        process.kill(item.pid, 'SIGSTOP');
        stopped.push(item.pid);
      }
      expect(stopped.length).toBeGreaterThan(0);
      await watch.until((snapshot) => snapshot.sessions.some((row) => row.key === key && row.observed.reason === 'host-unreachable'), 30_000);
      for (const pid of stopped.splice(0)) process.kill(pid, 'SIGCONT');
      const seen = watch.snapshots.length;
      await watch.until(
        (snapshot) => watch.snapshots.indexOf(snapshot) >= seen && snapshot.sessions.some((row) => row.key === key && row.observed.reason === 'turn-finished'),
        60_000,
      );
    } finally {
      for (const pid of stopped) process.kill(pid, 'SIGCONT');
      await watch.stop();
    }
  }, 120_000);
});

describe.skipIf(unavailable !== null)('notifications for remote claims', () => {
  class Recorder implements Notifier {
    readonly plans: NotificationPlan[] = [];
    private told: () => void = () => undefined;
    /** Resolves at the first notification. */
    readonly first = new Promise<void>((done) => {
      this.told = done;
    });
    send(plan: NotificationPlan): Promise<void> {
      this.plans.push(plan);
      this.told();
      return Promise.resolve();
    }
  }

  /** Runs the runtime until a snapshot passes the test (a condition, never a fixed time). */
  async function runUntil(env: Record<string, string>, notifier: Recorder, test: (snapshot: Snapshot) => boolean): Promise<void> {
    const runtime = new Runtime({ env, clock: Date.now, notifier, onProblem: () => undefined });
    const seen = new Promise<void>((done) => runtime.onSnapshot((snapshot) => test(snapshot) && done()));
    await runtime.start();
    await seen;
    await runtime.dispose();
  }

  it('R40–R41 a remote question notifies once here, named with its host; the local ledger keeps it from repeating', async () => {
    const here = local();
    const devbox = machine('devbox');
    const key = `devbox:${session(devbox.env.CLAUDE_CONFIG_DIR, 'question-pending', 30_000)}`;
    here.add(['devbox', '--command', devbox.command]);
    const first = new Recorder();
    const runtime = new Runtime({ env: here.env, clock: Date.now, notifier: first, onProblem: () => undefined });
    await runtime.start();
    await first.first;
    await runtime.dispose();
    expect(first.plans).toHaveLength(1);
    expect(first.plans[0]).toMatchObject({ keys: [key], title: 'Claude on devbox · app (main) needs you' });
    expect(first.plans[0]?.body).toBe('asks: Which database?');
    const ledger = (JSON.parse(readFileSync(join(here.env.LOOKOUT_HOME, 'store.json'), 'utf8')) as { notified: { id: string }[] }).notified.map(
      (entry) => entry.id,
    );
    expect(ledger).toEqual(first.plans[0]?.claimIds);
    // The remote machine's own ledger is its own: nothing was recorded there.
    expect(existsSync(join(devbox.env.LOOKOUT_HOME, 'store.json')) ? readFileSync(join(devbox.env.LOOKOUT_HOME, 'store.json'), 'utf8') : '').not.toContain(
      'notified":[{',
    );
    const second = new Recorder();
    await runUntil(here.env, second, (snapshot) =>
      snapshot.sessions.some((row) => row.key === key && row.host === 'devbox' && row.observed.state === 'awaiting-input'),
    );
    expect(second.plans).toEqual([]);
  }, 60_000);

  it('R40 a remote ambiguous claim notifies here once its wait is over, with no new line from its host', async () => {
    const here = local();
    const devbox = machine('devbox');
    const key = `devbox:${session(devbox.env.CLAUDE_CONFIG_DIR, 'tool-pending', 10_000)}`;
    here.add(['devbox', '--command', devbox.command]);
    // The claim as the host sees it now; the wait here is set to end a few seconds after the link is up.
    const there = JSON.parse(runCli(['status', '--json'], devbox.env).stdout) as Snapshot;
    const claim = there.sessions[0]?.claim;
    expect(claim).toMatchObject({ kind: 'needs-you', ambiguous: true });
    const since = Date.parse(claim?.since ?? '');
    const settings = JSON.parse(readFileSync(join(here.env.LOOKOUT_HOME, 'settings.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(
      join(here.env.LOOKOUT_HOME, 'settings.json'),
      JSON.stringify({ ...settings, timings: { ambiguousNotifyAfter: Date.now() + 15_000 - since } }),
    );
    const notifier = new Recorder();
    const runtime = new Runtime({ env: here.env, clock: Date.now, notifier, onProblem: () => undefined });
    const linked = new Promise<void>((done) => runtime.onSnapshot((snapshot) => snapshot.sessions.some((row) => row.key === key) && done()));
    await runtime.start();
    await linked;
    // Not yet due when the host's rows arrived: only the wait's end can bring it.
    expect(notifier.plans).toEqual([]);
    await notifier.first;
    await runtime.dispose();
    expect(notifier.plans).toHaveLength(1);
    expect(notifier.plans[0]?.keys).toEqual([key]);
  }, 60_000);
});

describe.skipIf(unavailable !== null)('remote sessions through every command and the popover', () => {
  it("R70 a prompt on another machine answered from here: that machine's Lookout (which holds the hook) decides", async () => {
    const here = local();
    const devbox = machine('devbox');
    const key = session(devbox.env.CLAUDE_CONFIG_DIR, 'fresh-tool', 1_000);
    here.add(['devbox', '--command', devbox.command]);
    // devbox runs a Lookout holding the answer channel; its agent's hooks bring it a prompt.
    const owner = new WatchProcess([], devbox.env);
    try {
      await waitFor("devbox's Lookout holding the answer channel", () => (existsSync(join(devbox.env.LOOKOUT_HOME, 'run', 'answer.pid')) ? true : undefined));
      const hook = findAnswerHook('claude-answer')?.hook;
      if (hook === undefined) throw new Error('Claude has an answering hook');
      const payload = {
        hook_event_name: 'PermissionRequest',
        session_id: key.slice('claude:'.length),
        cwd: '/home/me/app',
        tool_name: 'Bash',
        tool_input: { command: 'npm test' },
      };
      writeSpool(join(devbox.env.LOOKOUT_HOME, 'spool'), 'claude', 'hook', JSON.stringify(payload), Date.now());
      const printed = askLookout(devbox.env.LOOKOUT_HOME, hook, payload, 60_000);
      await waitFor('the remote prompt answerable here', () =>
        statusRows(here.env).rows.some((row) => row.key === `devbox:${key}` && row.answer?.state === 'open') ? true : undefined,
      );
      // A command answers after the grace (R72); the refusal before it comes from devbox, with its reason.
      let result = runCli(['answer', `devbox:${key}`, 'allow'], here.env);
      while (result.code === 1 && /a key or command answers it after/.test(result.stderr)) {
        await new Promise((done) => setTimeout(done, 250));
        result = runCli(['answer', `devbox:${key}`, 'allow'], here.env);
      }
      expect(result.code, result.stderr).toBe(0);
      expect(await printed).toBe('{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}\n');
      // The audit is devbox's: the answer came from a host.
      const store = JSON.parse(readFileSync(join(devbox.env.LOOKOUT_HOME, 'store.json'), 'utf8')) as { answers?: { answer: string; from: string }[] };
      expect(store.answers?.[0]).toMatchObject({ answer: 'allow', from: 'host' });
    } finally {
      await owner.stop();
    }
  });

  it("explain asks the session's own machine; its words arrive as text only", () => {
    const here = local();
    const devbox = machine('devbox');
    const key = `devbox:${session(devbox.env.CLAUDE_CONFIG_DIR, 'question-pending', 30_000)}`;
    here.add(['devbox', '--command', devbox.command]);
    const result = runCli(['explain', key], here.env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.split('\n')[0]).toBe('on devbox:');
    expect(result.stdout).toContain('question-pending');
  });

  it("the popover's review, mute and select of a remote row land in that machine's store", async () => {
    const here = local();
    const devbox = machine('devbox');
    const inner = session(devbox.env.CLAUDE_CONFIG_DIR, 'long-finish', 30_000);
    const key = `devbox:${inner}`;
    here.add(['devbox', '--command', devbox.command]);
    const runtime = new Runtime({ env: here.env, clock: Date.now, notifier: null, onProblem: () => undefined });
    const host = new PopoverHost(runtime, Date.now, true);
    const snapshots: Snapshot[] = [];
    runtime.onSnapshot((snapshot) => snapshots.push(snapshot));
    const until = (test: (snapshot: Snapshot) => boolean) =>
      new Promise<void>((done) => {
        if (snapshots.some(test)) return done();
        const stop = runtime.onSnapshot((snapshot) => {
          if (!test(snapshot)) return;
          stop();
          done();
        });
      });
    await runtime.start();
    try {
      await until((snapshot) => snapshot.sessions.some((row) => row.key === key));
      expect(await host.command({ type: 'review', key, state: 'flagged' })).toEqual({ ok: true });
      await until((snapshot) => snapshot.sessions.some((row) => row.key === key && row.review.state === 'flagged'));
      expect(await host.command({ type: 'mute', key, span: '1h' })).toEqual({ ok: true });
      await until((snapshot) => snapshot.sessions.some((row) => row.key === key && row.muted !== null));
      expect(await host.command({ type: 'select', key })).toEqual({ ok: true });
      const store = () =>
        JSON.parse(readFileSync(join(devbox.env.LOOKOUT_HOME, 'store.json'), 'utf8')) as {
          reviews: Record<string, { state: string }>;
          mutes: Record<string, unknown>;
          visits: Record<string, unknown>;
        };
      await until(() => store().visits[inner] !== undefined);
      expect(store().reviews[inner]?.state).toBe('flagged');
      expect(store().mutes[inner]).toBeDefined();
    } finally {
      await runtime.dispose();
    }
  }, 60_000);
});

describe.skipIf(unavailable !== null || CHROMIUM === null)('the popover in Chromium with a host', () => {
  it('a remote row says its host, the quick filter narrows to one machine, the settings view lists the host and its state', async () => {
    const here = local();
    const devbox = machine('devbox');
    const mine = session(here.env.CLAUDE_CONFIG_DIR, 'long-finish', 30_000);
    const theirs = `devbox:${session(devbox.env.CLAUDE_CONFIG_DIR, 'question-pending', 30_000)}`;
    here.add(['devbox', '--command', devbox.command]);
    const served = await serve(here.env);
    const browser = await launch();
    try {
      const page = await browser.newPage({ viewport: { width: 380, height: 560 } });
      page.setDefaultTimeout(20_000);
      await page.goto(served.url.toString());
      await page.waitForSelector(`[data-session-key="${theirs}"]`);
      expect(await page.textContent(`[data-session-key="${theirs}"] .host`)).toBe('devbox');
      expect(await page.$(`[data-session-key="${mine}"] .host`)).toBeNull();
      await page.selectOption('select[aria-label="Quick filter"]', 'host:devbox');
      await page.waitForSelector(`[data-session-key="${mine}"]`, { state: 'detached' });
      expect(await page.$$eval('[data-session-key]', (rows) => rows.map((row) => row.getAttribute('data-session-key')))).toEqual([theirs]);
      await page.selectOption('select[aria-label="Quick filter"]', 'host:');
      await page.waitForSelector(`[data-session-key="${theirs}"]`, { state: 'detached' });
      await page.click('button[aria-label="Settings"]');
      await page.waitForSelector('.host-line');
      expect(await page.textContent('.host-line')).toBe('devbox (devbox): connected');
    } finally {
      await browser.close();
      await served.stop();
    }
  }, 90_000);
});

const TMUX = (() => {
  try {
    execFileSync('tmux', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe.skipIf(unavailable !== null || !TMUX)('opening a live remote session held in a tmux pane there', () => {
  it('open --print: ssh -t there, whose Lookout attaches that very pane (found by process ancestry)', async () => {
    const here = local({ TERMINAL: 'xterm', PATH: `${join(base, 'bin-tmux')}:${process.env.PATH ?? ''}` });
    mkdirSync(join(base, 'bin-tmux'), { recursive: true });
    writeFileSync(join(base, 'bin-tmux', 'xterm'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    const devbox = machine('devbox');
    const tmuxDir = join(devbox.dir, 'tmux');
    mkdirSync(tmuxDir, { recursive: true });
    const command = devbox.command.replace(/^env /, `env TMUX_TMPDIR=${tmuxDir} `);
    const key = session(devbox.env.CLAUDE_CONFIG_DIR, 'long-finish', 5_000);
    const tmuxEnv: NodeJS.ProcessEnv = { ...process.env, TMUX_TMPDIR: tmuxDir };
    delete tmuxEnv.TMUX;
    execFileSync('tmux', ['new-session', '-d', '-s', 'agents', 'sleep 600'], { env: tmuxEnv });
    try {
      const [pane, pid] = execFileSync('tmux', ['list-panes', '-a', '-F', '#{pane_id} #{pane_pid}'], { env: tmuxEnv, encoding: 'utf8' }).trim().split(' ');
      // The agent's live registry entry names the process in that pane.
      mkdirSync(join(devbox.env.CLAUDE_CONFIG_DIR, 'sessions'), { recursive: true });
      writeFileSync(
        join(devbox.env.CLAUDE_CONFIG_DIR, 'sessions', `${pid}.json`),
        JSON.stringify({
          pid: Number(pid),
          cwd: '/home/me/app',
          startedAt: Date.now(),
          kind: 'interactive',
          entrypoint: 'cli',
          sessionId: key.slice('claude:'.length),
          status: 'idle',
          updatedAt: Date.now(),
        }),
      );
      here.add(['devbox', '--command', command]);
      const result = runCli(['open', `devbox:${key}`, '--print'], here.env);
      expect(result.code, result.stderr).toBe(0);
      const plan = JSON.parse(result.stdout) as { kind: string; steps: { argv: string[] }[] };
      expect(plan.kind).toBe('terminal');
      expect(plan.steps[0]?.argv.at(-1)).toBe(`${command} open-here ${key}`);
      // What that machine's Lookout runs there, in the terminal ssh gives it.
      const there = runCli(['open-here', key, '--print'], { ...devbox.env, TMUX_TMPDIR: tmuxDir });
      expect(there.code, there.stderr).toBe(0);
      expect(JSON.parse(there.stdout)).toEqual({
        kind: 'run',
        argv: ['tmux', 'attach-session', '-t', pane, ';', 'select-window', '-t', pane, ';', 'select-pane', '-t', pane],
        cwd: null,
      });
    } finally {
      execFileSync('tmux', ['kill-server'], { env: tmuxEnv, stdio: 'ignore' });
    }
  }, 60_000);
});

describe.skipIf(unavailable !== null)('a failed host mends', () => {
  it('garbage first, then its Lookout is fixed there: the link comes back by itself (backoff) and its rows appear', async () => {
    const here = local();
    const devbox = machine('devbox');
    const key = `devbox:${session(devbox.env.CLAUDE_CONFIG_DIR, 'long-finish', 30_000)}`;
    const script = join(devbox.dir, 'lookout.sh');
    writeFileSync(script, "#!/bin/sh\nprintf 'Welcome to devbox!\\n'\nsleep 30\n", { mode: 0o755 });
    here.add(['devbox', '--command', script]);
    const watch = new WatchProcess(['--all'], here.env);
    try {
      await watch.until(() => watch.stderr.includes('host devbox failed: devbox sent a line that is not a snapshot (not JSON); cut off'), 30_000);
      expect(watch.snapshots.at(-1)?.sessions.filter((row) => row.host === 'devbox')).toEqual([]);
      writeFileSync(script, `#!/bin/sh\nexec ${devbox.command} "$@"\n`, { mode: 0o755 });
      await watch.until((snapshot) => snapshot.sessions.some((row) => row.key === key && row.observed.reason === 'turn-finished'), 60_000);
      // Said once, not at every retry.
      expect(watch.stderr.split('not a snapshot').length - 1).toBe(1);
    } finally {
      await watch.stop();
    }
  }, 120_000);
});

describe.skipIf(unavailable !== null)('a remote that names hosts of its own', () => {
  it('its feed tells only its own sessions: no relays, and two machines naming each other never loop', () => {
    const here = local();
    const devbox = machine('devbox');
    const gpubox = machine('gpubox');
    const theirs = `devbox:${session(devbox.env.CLAUDE_CONFIG_DIR, 'long-finish', 30_000)}`;
    session(gpubox.env.CLAUDE_CONFIG_DIR, 'working', 2_000);
    // devbox's own Lookout names gpubox, and gpubox names devbox back.
    mkdirSync(devbox.env.LOOKOUT_HOME, { recursive: true });
    mkdirSync(gpubox.env.LOOKOUT_HOME, { recursive: true });
    writeFileSync(
      join(devbox.env.LOOKOUT_HOME, 'settings.json'),
      JSON.stringify({ hosts: [{ name: 'gpubox', destination: 'gpubox', command: gpubox.command }] }),
    );
    writeFileSync(
      join(gpubox.env.LOOKOUT_HOME, 'settings.json'),
      JSON.stringify({ hosts: [{ name: 'devbox', destination: 'devbox', command: devbox.command }] }),
    );
    // devbox could reach gpubox (the same ssh config): only the feed's own restraint keeps it out.
    here.add(['devbox', '--command', devbox.command.replace(/^env /, `env LOOKOUT_SSH_CONFIG=${sshd?.config ?? ''} `)]);
    const { rows } = statusRows(here.env);
    expect(rows.map((item) => item.key)).toEqual([theirs]);
  });
});
