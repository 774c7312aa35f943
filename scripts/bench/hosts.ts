// Issue 13's figures: 4 hosts × 300 sessions over loopback ssh (a real sshd; each "host" is this
// machine with its own folders, running the built CLI's feed): a remote append → the local
// snapshot, the local runtime's idle CPU with 4 hosts connected, and what one more host costs.
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { finishedClaudeSessions } from '../../test/hosts/machines';
import { FEED_HOST, feedBytesBench } from './feed-bytes';
import { basename, join, resolve } from 'node:path';
import { startSshd, sshUnavailable } from '../../test/hosts/sshd';
import { median, percentile } from './measure';
import { cpuSeconds, rssMb } from './watch-latency';
import { WatchStates, within } from './watch-states';
import { ownChild } from './interrupted';

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** One "machine": its folders and the command that runs its Lookout, with `count` finished Claude sessions. */
export function machine(folder: string, name: string, count: number, cli: string): { command: string; files: string[] } {
  const dir = join(folder, name);
  const files = finishedClaudeSessions(join(dir, 'claude', 'projects', '-home-me-app'), name, count);
  const env = {
    HOME: dir,
    LOOKOUT_HOME: join(dir, 'lookout'),
    CLAUDE_CONFIG_DIR: join(dir, 'claude'),
    CODEX_HOME: join(dir, 'codex'),
    COPILOT_HOME: join(dir, 'copilot'),
    OPENCODE_DATA_DIR: join(dir, 'opencode'),
  };
  return { command: ['env', ...Object.entries(env).map(([key, value]) => `${key}=${value}`), process.execPath, cli].join(' '), files };
}

/** A local Lookout home whose settings name these hosts. */
function localHome(folder: string, hosts: { name: string; command: string }[]): string {
  const home = join(folder, `local-${hosts.length}`);
  mkdirSync(home, { recursive: true });
  writeFileSync(
    join(home, 'settings.json'),
    JSON.stringify({ hosts: hosts.map((host) => ({ name: host.name, destination: host.name, command: host.command })) }),
  );
  return home;
}

async function connected(watch: WatchStates, rows: number): Promise<void> {
  while (watch.states.size < rows) await sleep(50);
}

export async function hostsBench(folder: string, quick: boolean): Promise<void> {
  const unavailable = sshUnavailable();
  if (unavailable !== null) {
    console.log(`hosts over ssh: skipped (${unavailable})`);
    return;
  }
  const cli = resolve(__dirname, 'cli.cjs');
  const perHost = quick ? 30 : 300;
  const names = ['h1', 'h2', 'h3', 'h4'];
  // The feed's figure, measured last, is taken over this sshd too: its host is one more alias
  // (without it, the full bench waited a minute for a host no config named, and stopped).
  const sshd = await startSshd(join(folder, 'sshd'), [...names, FEED_HOST]);
  ownChild(sshd.process);
  try {
    const machines = names.map((name) => ({ name, ...machine(join(folder, 'hosts'), name, perHost, cli) }));
    const base = {
      ...process.env,
      LOOKOUT_SSH_CONFIG: sshd.config,
      CLAUDE_CONFIG_DIR: join(folder, 'none'),
      CODEX_HOME: join(folder, 'none'),
      COPILOT_HOME: join(folder, 'none'),
      OPENCODE_DATA_DIR: join(folder, 'none'),
    };

    // Memory: the local runtime with one host, then with four.
    const one = new WatchStates(cli, { ...base, LOOKOUT_HOME: localHome(folder, machines.slice(0, 1)) });
    await connected(one, perHost);
    await sleep(2000);
    const rssOne = rssMb(one.child.pid ?? 0);
    one.child.kill('SIGINT');

    const watch = new WatchStates(cli, { ...base, LOOKOUT_HOME: localHome(folder, machines) });
    const started = Date.now();
    await connected(watch, perHost * names.length);
    console.log(`hosts: ${names.length} hosts × ${perHost} sessions over loopback ssh, all rows in the local snapshot after ${Date.now() - started} ms`);
    await sleep(3000);
    const rssFour = rssMb(watch.child.pid ?? 0);

    // A remote append → the local snapshot.
    const steps = quick ? 5 : 40;
    const latencies: number[] = [];
    for (let step = 0; step < steps; step += 1) {
      const host = machines[step % machines.length];
      const file = host?.files[(step * 7) % perHost] ?? '';
      const id = basename(file, '.jsonl');
      const key = `${host?.name ?? ''}:claude:${id}`;
      const wanted = watch.states.get(key) === 'running' ? 'idle' : 'running';
      const seen = watch.reaches(key, wanted);
      const now = new Date().toISOString();
      const record =
        wanted === 'running'
          ? {
              parentUuid: null,
              isSidechain: false,
              type: 'user',
              message: { role: 'user', content: `step ${step}` },
              uuid: `c0000000-0000-4000-8000-${step.toString(16).padStart(12, '0')}`,
              timestamp: now,
              cwd: '/home/me/app',
              sessionId: id,
              version: '2.1.143',
            }
          : {
              parentUuid: null,
              isSidechain: false,
              type: 'assistant',
              message: { role: 'assistant', model: 'claude', content: [{ type: 'text', text: 'Done.' }], stop_reason: 'end_turn' },
              uuid: `d0000000-0000-4000-8000-${step.toString(16).padStart(12, '0')}`,
              timestamp: now,
              cwd: '/home/me/app',
              sessionId: id,
              version: '2.1.143',
            };
      const t0 = process.hrtime.bigint();
      appendFileSync(file, `${JSON.stringify(record)}\n`);
      latencies.push(await within(seen, t0, 5000));
      await sleep(200);
    }
    console.log(
      `hosts: remote append → local snapshot over ${steps} appends: p50 ${median(latencies).toFixed(0)} ms, p95 ${percentile(latencies, 95).toFixed(0)} ms (targets ≤ 150 ms, ≤ 400 ms)`,
    );

    // Idle: nothing changes anywhere; keep-alives and beats only.
    await sleep(2000);
    const seconds = quick ? 5 : 60;
    const pid = watch.child.pid ?? 0;
    const cpu0 = cpuSeconds(pid);
    const wall0 = Date.now();
    await sleep(seconds * 1000);
    const cpu = cpuSeconds(pid) - cpu0;
    const wall = (Date.now() - wall0) / 1000;
    console.log(
      `hosts: idle CPU of the local runtime with ${names.length} hosts connected over ${wall.toFixed(0)} s: ${((cpu / wall) * 100).toFixed(2)}% of one core (target ≤ 1%)`,
    );
    console.log(
      `hosts: resident memory ${rssOne.toFixed(0)} MB with 1 host, ${rssFour.toFixed(0)} MB with 4: one more host of ${perHost} sessions costs ~${((rssFour - rssOne) / 3).toFixed(1)} MB`,
    );
    watch.child.kill('SIGINT');
    await feedBytesBench(sshd, folder, quick, cli);
  } finally {
    await sshd.stop();
  }
}

/** `--only feed`: the feed's bytes per change alone, over its own test sshd. */
export async function feedOnlyBench(folder: string, quick: boolean): Promise<void> {
  const unavailable = sshUnavailable();
  if (unavailable !== null) {
    console.log(`feed bytes: skipped (${unavailable})`);
    return;
  }
  const sshd = await startSshd(join(folder, 'sshd-feed'), [FEED_HOST]);
  ownChild(sshd.process);
  try {
    await feedBytesBench(sshd, folder, quick, resolve(__dirname, 'cli.cjs'));
  } finally {
    await sshd.stop();
  }
}
