// Issue 27's first-pass figures: when `watch`'s background pass over a history's middles is over,
// the CPU it took, and the floor it is weighed against: reading every file of that history whole
// once (256 KB reads, nothing parsed), timed in this process the same run.
import { closeSync, openSync, readSync } from 'node:fs';
import { cpuSeconds, rssMb } from './watch-latency';
import type { WatchStates } from './watch-states';

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

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
}

/** A fresh `watch`'s first snapshot, then its first background pass until the process is quiet. */
export async function firstPass(watch: WatchStates, files: readonly string[]): Promise<FirstPass> {
  const started = Date.now();
  while (watch.states.size === 0) await sleep(20);
  const firstMs = Date.now() - started;
  const scan = await passSettles(watch.child.pid ?? 0);
  return { firstMs, scan, floor: wholeReadCpu(files) };
}

/**
 * The control for a first pass: a `watch` on the same home once that pass is done (the index holds
 * every middle), its CPU over the same span after its first snapshot. Its clock starts where the
 * pass's watch started (`--now`), so the rows that change by time alone during the pass (finish
 * claims ending) change during the control too. What a start costs besides the pass (the
 * watcher's first scan, the second read, the beat, timed transitions) is in both, so the pass's
 * own cost is the difference.
 */
export async function controlCpu(watch: WatchStates, seconds: number): Promise<number> {
  while (watch.states.size === 0) await sleep(20);
  const pid = watch.child.pid ?? 0;
  const before = cpuSeconds(pid);
  await sleep(seconds * 1000);
  const used = cpuSeconds(pid) - before;
  watch.child.kill('SIGINT');
  await new Promise((done) => watch.child.once('exit', done));
  return used;
}

/** The first pass's line: its time and CPU, the control's, and the pass's own against the floor. */
export function passLine(pass: FirstPass, control: number): string {
  const own = pass.scan.cpuSeconds - control;
  return `first background pass (no index yet): ${pass.scan.seconds.toFixed(0)} s after the first snapshot, ${pass.scan.cpuSeconds.toFixed(2)} s of CPU; a watch with the pass already done, the same span: ${control.toFixed(2)} s; the pass's own ${own.toFixed(2)} s = ${(own / pass.floor).toFixed(2)}× one whole read of the history (${pass.floor.toFixed(2)} s CPU, 256 KB reads; target ≤ 2×; ${(pass.scan.cpuSeconds / pass.floor).toFixed(2)}× without the control); RSS max ${pass.scan.rssMax.toFixed(0)} MB (target ≤ 150 MB)`;
}
