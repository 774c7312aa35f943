// Issue 27's first-pass figures: when `watch`'s background pass over a history's middles is over,
// the CPU it took, and the floor it is weighed against: reading every file of that history whole
// once (256 KB reads, nothing parsed), timed in this process the same run.
import { closeSync, mkdirSync, openSync, readFileSync, readSync, rmSync } from 'node:fs';
import { cpuSeconds, rssMb } from './watch-latency';
import { WatchStates } from './watch-states';

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** The bytes a process has had read from storage (not the page cache), in MB; NaN where /proc does not say. */
export function diskMb(pid: number): number {
  const match = /read_bytes: (\d+)/.exec(readFileSync(`/proc/${pid}/io`, 'utf8'));
  return match?.[1] === undefined ? Number.NaN : Number(match[1]) / 1e6;
}

/** CPU seconds this process spends reading `files` whole once. */
export function wholeReadCpu(files: readonly string[]): number {
  const buffer = Buffer.allocUnsafe(256 * 1024);
  const before = process.cpuUsage();
  for (const file of files) {
    const fd = openSync(file, 'r');
    try {
      while (readSync(fd, buffer, 0, buffer.length, null) > 0);
    } finally {
      closeSync(fd);
    }
  }
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1e6;
}

/**
 * Waits until the process's background pass is over: five seconds in a row each under 2 % of a
 * core (the index is written at most every 30 s while a pass runs, so its file cannot tell).
 * Returns the pass's time and CPU up to its last busy second, and the largest RSS seen.
 */
export async function passSettles(pid: number): Promise<{ seconds: number; cpuSeconds: number; cpuPercent: number; rssMax: number }> {
  const start = Date.now();
  const cpu0 = cpuSeconds(pid);
  const rss: number[] = [];
  let last = { at: start, cpu: cpu0 };
  let busyEnd = { at: start, cpu: cpu0 };
  let quiet = 0;
  while (quiet < 5 && Date.now() - start < 900_000) {
    await sleep(1000);
    rss.push(rssMb(pid));
    const now = { at: Date.now(), cpu: cpuSeconds(pid) };
    const share = (now.cpu - last.cpu) / ((now.at - last.at) / 1000);
    if (share < 0.02) quiet += 1;
    else {
      quiet = 0;
      busyEnd = now;
    }
    last = now;
  }
  const seconds = (busyEnd.at - start) / 1000;
  const used = busyEnd.cpu - cpu0;
  return { seconds, cpuSeconds: used, cpuPercent: seconds === 0 ? 0 : (used / seconds) * 100, rssMax: Math.max(...rss) };
}

export interface FirstPass {
  /** From launch to the first snapshot. */
  firstMs: number;
  scan: Awaited<ReturnType<typeof passSettles>>;
  /** One whole read of the history, in CPU seconds (the pass's floor). */
  floor: number;
  /**
   * What the `watch` read from storage, in MB: a pass that found the middles paged out read them
   * from the disk, and paid the I/O in CPU the floor, read from a warm cache, does not.
   */
  diskMb: number;
}

/** The machine's busy and total CPU time so far, in ticks (/proc/stat's first line). */
function machineTicks(): { busy: number; total: number } {
  const fields = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((sum, value) => sum + value, 0);
  // idle and iowait: nothing runs.
  return { busy: total - (fields[3] ?? 0) - (fields[4] ?? 0), total };
}

/**
 * Waits (up to a minute) until the whole machine has been under 5 % busy for half a second: a
 * history just written is still being written back, and this process's collector may be freeing
 * what writing it took; either, on another core, inflated the CPU of the process measured next.
 */
export async function quietMachine(): Promise<void> {
  const started = Date.now();
  let before = machineTicks();
  while (Date.now() - started < 60_000) {
    await sleep(500);
    const now = machineTicks();
    const share = now.total === before.total ? 0 : (now.busy - before.busy) / (now.total - before.total);
    if (share < 0.05) return;
    before = now;
  }
  console.log('(the machine stayed over 5 % busy for a minute; the next figure is measured anyway)');
}

/**
 * The page cache as a read of the whole history leaves it. This machine's reclaim pages a file's
 * cache out within seconds of its last read (a 50 MB file read whole kept 40 % of it 15 s later),
 * and the middles are read by nothing else before a pass: left as generated, the pass refilled the
 * cache while the floor, read after it, found it hot (0.5–1.1 s of the pass's CPU against
 * 0.29–0.45 s warmed, docs/performance.md, run AD). Read twice: the second read is the floor's.
 */
function warmedFloor(files: readonly string[]): number {
  wholeReadCpu(files);
  return wholeReadCpu(files);
}

/**
 * A fresh `watch`'s first snapshot, then its first background pass until the process is quiet.
 * The history is read whole just before the start, so the pass finds no colder a cache than the
 * floor does; the floor is the cheaper of a read then and one after the pass.
 */
export async function firstPass(files: readonly string[], start: () => WatchStates): Promise<FirstPass & { watch: WatchStates }> {
  await quietMachine();
  const before = warmedFloor(files);
  const watch = start();
  const started = Date.now();
  while (watch.states.size === 0) await sleep(20);
  const firstMs = Date.now() - started;
  const scan = await passSettles(watch.child.pid ?? 0);
  return { firstMs, scan, floor: Math.min(before, warmedFloor(files)), diskMb: diskMb(watch.child.pid ?? 0), watch };
}

/**
 * The control for a first pass: the same cold start (a fresh home, no index) with the pass
 * switched off (LOOKOUT_BACKGROUND_PASS=off), on a cache warmed the same way, its CPU from launch
 * over the same span as the pass's watch (to that watch's stop). Its clock starts where the pass's
 * watch started (`--now`), so the rows that change by time alone (finish claims ending) change in
 * both. The start (the first read, the watcher's first scan, the index's write, the collection
 * after the first burst) is in both, so the difference is the pass's own. A control started warm
 * (an index holding every middle) left the start's work after the first snapshot to the pass: the
 * watcher's first scan, ~0.1 s of CPU, fell before or after that snapshot from one run to the
 * next (docs/performance.md, run AD).
 */
export async function controlCpu(
  cli: string,
  env: NodeJS.ProcessEnv,
  files: readonly string[],
  pass: FirstPass & { watch: WatchStates },
  spanSeconds: number,
): Promise<number> {
  const home = `${env.LOOKOUT_HOME ?? ''}-control`;
  rmSync(home, { recursive: true, force: true });
  mkdirSync(home, { recursive: true });
  await quietMachine();
  warmedFloor(files);
  const watch = new WatchStates(cli, { ...env, LOOKOUT_HOME: home, LOOKOUT_BACKGROUND_PASS: 'off' }, pass.watch.startedAt);
  const pid = watch.child.pid ?? 0;
  await sleep(Math.max(0, watch.startedAt + spanSeconds * 1000 - Date.now()));
  const used = cpuSeconds(pid);
  watch.child.kill('SIGINT');
  await new Promise((done) => watch.child.once('exit', done));
  rmSync(home, { recursive: true, force: true });
  return used;
}

/** A first pass, its watch's CPU from launch to its stop, and its control's over the same span. */
export interface PassPair {
  pass: FirstPass;
  /**
   * From the launch to the pass's watch's stop, five quiet seconds after its pass: what the start
   * put off (the collection after the first burst, ~3 s after the first snapshot) is then in both
   * it and its control. Cut at the pass's last busy second instead, a control whose collection
   * came after the cut was ~0.35× lighter than its pass's watch (docs/performance.md, run AG).
   */
  stop: { seconds: number; cpuSeconds: number };
  control: number;
}

/** The pass's own CPU against the floor. */
const ownRatio = ({ pass, stop, control }: PassPair): number => (stop.cpuSeconds - control) / pass.floor;

/**
 * `count` first passes, each of a fresh `watch` from a fresh home, with its control. One pair's
 * own CPU spread ±0.05 s on this machine (a floor is ~0.14 s), as much as two starts of the same
 * `watch` differ: the bench's figure is the median of five (docs/performance.md, runs AE and AF).
 */
export async function passPairs(
  cli: string,
  env: NodeJS.ProcessEnv,
  files: readonly string[],
  count: number,
  during?: (watch: WatchStates, env: NodeJS.ProcessEnv) => Promise<void>,
): Promise<PassPair[]> {
  const pairs: PassPair[] = [];
  for (let index = 1; index <= count; index += 1) {
    const home = `${env.LOOKOUT_HOME ?? ''}-pass${index}`;
    rmSync(home, { recursive: true, force: true });
    mkdirSync(home, { recursive: true });
    const at = { ...env, LOOKOUT_HOME: home };
    const pass = await firstPass(files, () => new WatchStates(cli, at));
    const stop = { seconds: (Date.now() - pass.watch.startedAt) / 1000, cpuSeconds: cpuSeconds(pass.watch.child.pid ?? 0) };
    // What else is measured of this watch, its pass done (issue 51's slope): after the stop's CPU, so it is not in the pair's.
    await during?.(pass.watch, at);
    pass.watch.child.kill('SIGINT');
    await new Promise((done) => pass.watch.child.once('exit', done));
    pairs.push({ pass, stop, control: await controlCpu(cli, at, files, pass, stop.seconds) });
    rmSync(home, { recursive: true, force: true });
  }
  return pairs;
}

/** The first pass's line: the median pair's time and CPU, the control's, and the pass's own against the floor; then every pair's ratio. */
export function passLine(pairs: readonly PassPair[]): string {
  const sorted = [...pairs].sort((a, b) => ownRatio(a) - ownRatio(b));
  const median = sorted[Math.floor((sorted.length - 1) / 2)];
  if (median === undefined) return 'first background pass: not measured';
  const { pass, stop, control } = median;
  const own = stop.cpuSeconds - control;
  return `first background pass (no index yet), the median of ${pairs.length} (own / whole read, and what its watch read from disk: ${pairs.map((pair) => `${ownRatio(pair).toFixed(2)}× ${pair.pass.diskMb.toFixed(0)} MB`).join(', ')}): over ${pass.scan.seconds.toFixed(0)} s after the first snapshot (${pass.scan.cpuSeconds.toFixed(2)} s of CPU there); from launch to its stop, 5 s after the pass, ${stop.cpuSeconds.toFixed(2)} s of CPU in ${stop.seconds.toFixed(1)} s; the same start without the pass, the same span: ${control.toFixed(2)} s; the pass's own ${own.toFixed(2)} s = ${(own / pass.floor).toFixed(2)}× one whole read of the history (${pass.floor.toFixed(2)} s CPU, 256 KB reads, cache warm; target ≤ 2×); RSS max ${Math.max(...pairs.map((pair) => pair.pass.scan.rssMax)).toFixed(0)} MB (target ≤ 150 MB)`;
}
