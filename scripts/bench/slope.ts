// The slope (issues 27 and 51): cold status (session index absent and warm), the first background
// pass, and the `watch` that made it (its memory after, its idle CPU, a status it answers) at 500,
// 2,000, 8,000 and 20,000 sessions of each shape, each ratio against its floor in the same run, so
// docs/performance.md can say how cost grows, on which machine.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { measure, median, pairedRatio, pairedRounds, writeRssWrapper } from './measure';
import type { Shape } from './shapes';
import { passPairs } from './first-pass';
import { type RunningStatusFigures, runningStatus } from './running-status';
import { idleWindow } from './watch-latency';
import type { WatchStates } from './watch-states';

const MB = 1024 * 1024;

interface Point {
  shape: string;
  sessions: number;
  mb: number;
  absent: { ratio: number; ms: number };
  warm: { ratio: number; ms: number };
  tailMs: number;
  pass: { cpu: number; gross: number; floor: number; seconds: number; rss: number };
  /** The pass's `watch` once its pass is done and its finish claims have ended: RSS and CPU over an idle minute, and a status from it. */
  after: {
    rss: number;
    idle: number;
    /** Snapshot lines printed during the idle window (rows changed by time alone). */
    lines: number;
    status: RunningStatusFigures;
  };
}

/** A point's `watch`, measured after its pass and its finish claims' ends: how long it is watched idle, and how many status runs it answers. */
const IDLE_SECONDS = 60;
const STATUS_RUNS = 20;
/** The longest wait for rows to stop changing by time alone before the idle window (the read-heavy history dims 20,000 rows within ten minutes). */
const CHANGES_WAIT_MS = 15 * 60_000;

/**
 * Waits until the last change by time alone the watch's rows announce has come, a beat and a
 * pacing interval past it, when that is within `boundMs`; else (the mixed history dims rows over ten
 * hours) until the last finish claim's end. The idle window's line count says what still changed.
 */
async function timeChangesEnding(watch: WatchStates, boundMs: number): Promise<void> {
  const started = Date.now();
  const until = watch.changesEndAt - started <= boundMs ? watch.changesEndAt : watch.claimsEndAt;
  while (Date.now() < until + 5000 && Date.now() - started < boundMs) await new Promise((done) => setTimeout(done, 500));
}

async function point(folder: string, shape: Shape, sessions: number, runs: number, quick: boolean): Promise<Point> {
  const where = join(folder, `slope-${shape.name}-${sessions}`);
  try {
    const history = shape.write(where, sessions, Date.now());
    const list = join(where, 'files.txt');
    writeFileSync(list, history.files.join('\n'));
    const home = join(where, 'home');
    mkdirSync(home, { recursive: true });
    const wrapper = writeRssWrapper(where);
    const bench = resolve(__dirname, 'bench.cjs');
    const cli = resolve(__dirname, 'cli.cjs');
    const env = { ...process.env, CLAUDE_CONFIG_DIR: history.claudeRoot, CODEX_HOME: history.codexRoot, LOOKOUT_HOME: home };
    const index = join(home, 'index.json');
    // Warm-up: each reader once, so each is timed with what it reads in the page cache.
    measure(wrapper, cli, ['status', '--json', '--all'], env);
    measure(wrapper, bench, ['--baseline', 'tail', list], env);
    const absent = pairedRounds(wrapper, cli, bench, list, env, runs, () => rmSync(index, { force: true }));
    measure(wrapper, cli, ['status', '--json', '--all'], env);
    const warm = pairedRounds(wrapper, cli, bench, list, env, runs);
    // The first pass of a `watch` with no index yet (a fresh home), and its control: one pair.
    let after: Point['after'] | null = null;
    const [pair] = await passPairs(cli, env, history.files, 1, async (watch, at) => {
      const pid = watch.child.pid ?? 0;
      // Rows change by time alone until the last finish claim ends and the last idle row is dimmed
      // (each change a 13 MB line at 20,000 rows): idle is what comes after, within a bound.
      await timeChangesEnding(watch, quick ? 5_000 : CHANGES_WAIT_MS);
      const lines = watch.lines;
      const idle = await idleWindow(pid, quick ? 5 : IDLE_SECONDS);
      const status = runningStatus(wrapper, cli, at, quick ? 3 : STATUS_RUNS);
      after = { rss: Math.max(...idle.rss), idle: idle.cpuPercent, lines: watch.lines - lines, status };
    });
    if (pair === undefined || after === null) throw new Error('slope: no first pass was measured');
    const { pass, stop, control } = pair;
    return {
      shape: shape.name,
      sessions,
      mb: history.bytes / MB,
      absent: { ratio: pairedRatio(absent), ms: median(absent.statusRuns) },
      warm: { ratio: pairedRatio(warm), ms: median(warm.statusRuns) },
      tailMs: median([...absent.tailRuns, ...warm.tailRuns]),
      pass: { cpu: stop.cpuSeconds - control, gross: stop.cpuSeconds, floor: pass.floor, seconds: pass.scan.seconds, rss: pass.scan.rssMax },
      after,
    };
  } finally {
    // One size at a time on disk: 8,000 sessions of a shape are ~4.4 GB.
    rmSync(where, { recursive: true, force: true });
  }
}

/** The machine a slope ran on: a figure means little without it. */
export function machineLine(): string {
  const cores = cpus();
  return `machine: ${cores.length} cores, ${cores[0]?.model.trim() ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GB memory, Node ${process.version}, ${process.platform} ${process.arch}`;
}

/** The sizes a slope measures: `--sessions 8000,20000` picks some (each a whole number of sessions). */
export function slopeSizes(args: readonly string[], quick: boolean): number[] {
  const at = args.indexOf('--sessions');
  if (at === -1) return quick ? [20, 40, 80] : [500, 2000, 8000, 20000];
  const sizes = (args[at + 1] ?? '').split(',').map(Number);
  if (sizes.some((size) => !Number.isInteger(size) || size < 1))
    throw new Error(`--sessions: give whole numbers of sessions, comma-separated (as 2000,20000), not ${args[at + 1] ?? '(nothing)'}`);
  return sizes;
}

export async function slope(folder: string, shapes: readonly Shape[], sizes: readonly number[], quick: boolean): Promise<void> {
  const runs = quick ? 1 : 5;
  console.log(machineLine());
  console.log(
    '| shape | sessions | MB | tail floor | cold, index absent | cold, index warm | first pass: own CPU (from launch to its stop; with the pass) / whole read | pass time | pass RSS max | after the pass: RSS max, idle CPU (snapshot lines printed in that window) | status from the running Lookout: rows, p95 (over `node -e 0`) |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const shape of shapes) {
    for (const sessions of sizes) {
      const p = await point(folder, shape, sessions, runs, quick);
      const { rss, idle, lines, status } = p.after;
      console.log(
        `| ${p.shape} | ${p.sessions} | ${p.mb.toFixed(0)} | ${p.tailMs.toFixed(0)} ms | ${p.absent.ms.toFixed(0)} ms = ${p.absent.ratio.toFixed(2)}× | ${p.warm.ms.toFixed(0)} ms = ${p.warm.ratio.toFixed(2)}× | ${p.pass.cpu.toFixed(2)} (${p.pass.gross.toFixed(2)}) / ${p.pass.floor.toFixed(2)} s = ${(p.pass.cpu / p.pass.floor).toFixed(2)}× | ${p.pass.seconds.toFixed(0)} s | ${p.pass.rss.toFixed(0)} MB | ${rss.toFixed(0)} MB, ${idle.toFixed(2)} % (${lines}) | ${status.rows}, ${status.p95.toFixed(0)} ms (+${status.extra.toFixed(0)} ms) |`,
      );
    }
  }
}
