// Runs a command as a child process and measures its wall time and peak memory.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Measurement {
  ms: number;
  maxRssMb: number;
  stdout: string;
}

/** A wrapper that runs a script and reports the process's peak resident memory on exit. */
export function writeRssWrapper(folder: string): string {
  const path = join(folder, 'rss-wrapper.cjs');
  writeFileSync(
    path,
    [
      'const target = process.argv[2];',
      'process.argv.splice(1, 2, target);',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the code of a template literal, run in the measured process
      "process.on('exit', () => process.stderr.write(`\\nLOOKOUT_MAXRSS_KB ${process.resourceUsage().maxRSS}\\n`));",
      'require(target);',
    ].join('\n'),
  );
  return path;
}

export function measure(wrapper: string, script: string, args: string[], env: NodeJS.ProcessEnv): Measurement {
  const started = process.hrtime.bigint();
  // Bytes, decoded after the clock stops: decoding 13 MB of output into a string is the bench's work, not the command's (issue 51).
  const result = spawnSync(process.execPath, [wrapper, script, ...args], { env, maxBuffer: 512 * 1024 * 1024 });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const stderr = result.stderr.toString('utf8');
  if (result.status !== 0) throw new Error(`${script} ${args.join(' ')} exited ${result.status}: ${stderr}`);
  const rss = /LOOKOUT_MAXRSS_KB (\d+)/.exec(stderr);
  return { ms, maxRssMb: rss?.[1] === undefined ? Number.NaN : Number(rss[1]) / 1024, stdout: result.stdout.toString('utf8') };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;
}

export interface PairedRounds {
  statusRuns: number[];
  tailRuns: number[];
  peakMb: number;
  rows: number;
}

/**
 * Cold `status --json --all` and the 64 KB tail baseline, interleaved: each status run is paired
 * with the tail run just before it (this shared machine's speed drifts over seconds). `before`
 * runs, untimed, before each status run.
 */
export function pairedRounds(
  wrapper: string,
  cli: string,
  bench: string,
  list: string,
  env: NodeJS.ProcessEnv,
  runs: number,
  before: () => void = () => undefined,
): PairedRounds {
  const result: PairedRounds = { statusRuns: [], tailRuns: [], peakMb: 0, rows: 0 };
  for (let run = 0; run < runs; run += 1) {
    result.tailRuns.push(measure(wrapper, bench, ['--baseline', 'tail', list], env).ms);
    // Untimed: what the round needs in place (the session index absent or corrupt).
    before();
    const status = measure(wrapper, cli, ['status', '--json', '--all'], env);
    result.statusRuns.push(status.ms);
    result.peakMb = Math.max(result.peakMb, status.maxRssMb);
    result.rows = (JSON.parse(status.stdout) as { sessions: unknown[] }).sessions.length;
  }
  return result;
}

/** The median of the paired status / tail ratios. */
export function pairedRatio(rounds: PairedRounds): number {
  return median(rounds.statusRuns.map((ms, index) => ms / (rounds.tailRuns[index] ?? Number.NaN)));
}
