// Issue 51: `lookout status` with a Lookout running over the history — one round trip over its
// private channel — against Node's own start (`node -e 0`), interleaved in the same run. Every
// status run must say it came from the running Lookout, or the figure is not what it claims.
import { spawnSync } from 'node:child_process';
import { measure, median, percentile } from './measure';

export interface RunningStatusFigures {
  rows: number;
  p50: number;
  p95: number;
  nodeP95: number;
  /** Status's p95 over Node's own p95 (target ≤ +50 ms). */
  extra: number;
}

/** `runs` status runs from the running Lookout, each after a `node -e 0`. */
export function runningStatus(wrapper: string, cli: string, env: NodeJS.ProcessEnv, runs: number): RunningStatusFigures {
  const status: number[] = [];
  const node: number[] = [];
  let rows = 0;
  for (let run = 0; run < runs; run += 1) {
    const t0 = process.hrtime.bigint();
    spawnSync(process.execPath, ['-e', '0']);
    node.push(Number(process.hrtime.bigint() - t0) / 1e6);
    const result = measure(wrapper, cli, ['status', '--json'], env);
    const parsed = JSON.parse(result.stdout) as { from?: string; sessions: unknown[] };
    if (parsed.from !== 'running') throw new Error(`status read the ${parsed.from ?? '?'}, not the running Lookout`);
    rows = parsed.sessions.length;
    status.push(result.ms);
  }
  return { rows, p50: median(status), p95: percentile(status, 95), nodeP95: percentile(node, 95), extra: percentile(status, 95) - percentile(node, 95) };
}

export function runningStatusLine(wrapper: string, cli: string, env: NodeJS.ProcessEnv, runs: number): string {
  const figures = runningStatus(wrapper, cli, env, runs);
  return `status from the running Lookout (${figures.rows} rows shown): p50 ${figures.p50.toFixed(0)} ms, p95 ${figures.p95.toFixed(0)} ms; node -e 0 p95 ${figures.nodeP95.toFixed(0)} ms: +${figures.extra.toFixed(0)} ms at p95 over ${runs} (target ≤ +50 ms)`;
}
