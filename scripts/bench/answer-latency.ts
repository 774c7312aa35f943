// What the answering hook costs the agent (issue 23): with no Lookout running it must add nothing
// measurable (the sh shim looks for the socket and the owner's pid, and starts no Node); with one
// running, a prompt's round trip when Lookout lets it go at once. Ratios against `true` and
// `node -e 0`, measured in the same run.
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { answerEntries, shimEntries } from '../../src/main/hooks/installer';
import { shimText } from '../../src/main/hooks/shim';
import { AnswerBroker } from '../../src/main/answer/broker';
import { AnswerChannel } from '../../src/main/answer/channel-server';
import { runFolder } from '../../src/main/answer/paths';
import { median, percentile } from './measure';

const PAYLOAD = JSON.stringify({
  session_id: '7f0c1d2e-1111-4a2b-9c3d-000000000001',
  cwd: '/home/me/app',
  hook_event_name: 'PermissionRequest',
  tool_name: 'Bash',
  tool_input: { command: 'npm publish', description: 'Publish' },
});

function once(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((done) => {
    const started = process.hrtime.bigint();
    const child = spawn(command, args, { env, stdio: ['pipe', 'ignore', 'ignore'] });
    // A program that reads nothing (`true`) closes its input first.
    child.stdin.on('error', () => undefined);
    child.stdin.end(PAYLOAD);
    child.on('close', () => done(Number(process.hrtime.bigint() - started) / 1e6));
  });
}

async function time(runs: number, command: string, args: string[], env: NodeJS.ProcessEnv): Promise<number[]> {
  const times: number[] = [];
  for (let run = 0; run < runs; run += 1) times.push(await once(command, args, env));
  return times;
}

const line = (label: string, times: number[], base: number[], baseName: string) =>
  `${label}: p50 ${median(times).toFixed(1)} ms, p95 ${percentile(times, 95).toFixed(1)} ms (×${(median(times) / median(base)).toFixed(2)} of ${baseName})`;

export async function answerLatency(runs: number): Promise<void> {
  // Short: the socket's path holds at most 103 bytes.
  const home = mkdtempSync('/tmp/lk-bench-');
  try {
    const cli = resolve(__dirname, 'cli.cjs');
    const shim = join(home, 'lookout-hook');
    writeFileSync(
      shim,
      shimText(join(home, 'spool'), shimEntries(), { entries: answerEntries(), home, runFolder: runFolder(home), node: process.execPath, cli }),
    );
    chmodSync(shim, 0o700);
    const env = { ...process.env, LOOKOUT_HOME: home };
    const truth = await time(runs, 'true', [], env);
    const node = await time(runs, process.execPath, ['-e', '0'], env);
    // The spool hook every event already runs: the same sh reading the same payload.
    const spoolHook = await time(runs, shim, ['claude'], env);
    console.log(
      `baseline \`true\`: p50 ${median(truth).toFixed(1)} ms; \`node -e 0\`: p50 ${median(node).toFixed(1)} ms; the spool hook: p50 ${median(spoolHook).toFixed(1)} ms`,
    );
    console.log(line('answering hook, no Lookout running', await time(runs, shim, ['claude-answer'], env), spoolHook, 'the spool hook'));
    // A crashed Lookout's leftovers: a run folder whose owner is gone.
    mkdirSync(runFolder(home), { recursive: true, mode: 0o700 });
    writeFileSync(join(runFolder(home), 'answer.pid'), '2147483646\n');
    console.log(line("answering hook, a crashed Lookout's files", await time(runs, shim, ['claude-answer'], env), spoolHook, 'the spool hook'));
    rmSync(runFolder(home), { recursive: true, force: true });
    // A running Lookout that lets every prompt go as soon as it comes: the client's whole round trip.
    let broker: AnswerBroker;
    broker = new AnswerBroker({
      clock: Date.now,
      viewOf: () => null,
      movedOn: () => false,
      onAnswer: () => undefined,
      onChange: () => setImmediate(() => broker.releaseAll()),
    });
    const channel = new AnswerChannel(home, { message: (message, socket) => broker.message(message, socket), closed: (socket) => broker.hookGone(socket) });
    await channel.start();
    try {
      console.log(line('answering hook, Lookout running, let go at once', await time(runs, shim, ['claude-answer'], env), node, '`node -e 0`'));
    } finally {
      await channel.stop();
    }
    console.log('target: with no Lookout running the answering hook costs no more than the spool hook (×1.0: no Node is started)');
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
