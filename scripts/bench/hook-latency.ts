// How long the hook costs the agent that runs it (issue 6: target p95 under 50 ms): the sh shim
// and `lookout hook`, with Lookout's spool writable and not, measured against `true` and
// `node -e 0` as baselines in the same run.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { shimText } from '../../src/main/hooks/shim';
import { shimEntries } from '../../src/main/hooks/installer';
import { median, percentile } from './measure';

const PAYLOAD = JSON.stringify({
  session_id: '7f0c1d2e-1111-4a2b-9c3d-000000000001',
  transcript_path: '/home/me/.claude/projects/-home-me-app/x.jsonl',
  cwd: '/home/me/app',
  hook_event_name: 'PreToolUse',
  tool_name: 'Bash',
  tool_input: { command: 'npm test', description: 'Run the tests' },
});

function time(runs: number, command: string, args: string[], env: NodeJS.ProcessEnv): number[] {
  const times: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const started = process.hrtime.bigint();
    spawnSync(command, args, { input: PAYLOAD, env });
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return times;
}

const show = (label: string, times: number[]) => `${label}: p50 ${median(times).toFixed(1)} ms, p95 ${percentile(times, 95).toFixed(1)} ms`;

export function hookLatency(folder: string, runs: number): void {
  const home = join(folder, 'hook-home');
  const shim = join(folder, 'lookout-hook');
  mkdirSync(home, { recursive: true });
  writeFileSync(shim, shimText(join(home, 'spool'), shimEntries()));
  chmodSync(shim, 0o755);
  const cli = resolve(__dirname, 'cli.cjs');
  const env = { ...process.env, LOOKOUT_HOME: home };
  const blocked = join(folder, 'blocked-home');
  writeFileSync(blocked, 'a file where a folder should be');
  const blockedShim = join(folder, 'lookout-hook-blocked');
  writeFileSync(blockedShim, shimText(join(blocked, 'spool'), shimEntries()));
  chmodSync(blockedShim, 0o755);
  console.log(show('baseline `true`', time(runs, 'true', [], env)));
  console.log(show('baseline `node -e 0`', time(runs, process.execPath, ['-e', '0'], env)));
  console.log(show('hook, sh shim (what `hooks install` registers)', time(runs, shim, ['claude'], env)));
  console.log(show('hook, sh shim, spool unwritable', time(runs, blockedShim, ['claude'], env)));
  console.log(show('hook, `lookout hook claude` (Node)', time(runs, process.execPath, [cli, 'hook', 'claude'], env)));
  console.log(show('hook, `lookout hook claude`, spool unwritable', time(runs, process.execPath, [cli, 'hook', 'claude'], { ...env, LOOKOUT_HOME: blocked })));
  console.log('target: p95 under 50 ms for the registered hook');
}
