// Issue 27's slope: cold status (session index absent and warm) and the first background pass at
// 500, 2,000 and 8,000 sessions of each shape, each ratio against its floor in the same run, so
// docs/performance.md can say how cost grows and where it stops being linear.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { measure, median, pairedRatio, pairedRounds, writeRssWrapper } from './measure';
import type { Shape } from './shapes';
import { passPairs } from './first-pass';

const MB = 1024 * 1024;

interface Point {
  shape: string;
  sessions: number;
  mb: number;
  absent: { ratio: number; ms: number };
  warm: { ratio: number; ms: number };
  tailMs: number;
  pass: { cpu: number; gross: number; floor: number; seconds: number; rss: number };
}

async function point(folder: string, shape: Shape, sessions: number, runs: number): Promise<Point> {
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
    const [pair] = await passPairs(cli, env, history.files, 1);
    if (pair === undefined) throw new Error('slope: no first pass was measured');
    const { pass, stop, control } = pair;
    return {
      shape: shape.name,
      sessions,
      mb: history.bytes / MB,
      absent: { ratio: pairedRatio(absent), ms: median(absent.statusRuns) },
      warm: { ratio: pairedRatio(warm), ms: median(warm.statusRuns) },
      tailMs: median([...absent.tailRuns, ...warm.tailRuns]),
      pass: { cpu: stop.cpuSeconds - control, gross: stop.cpuSeconds, floor: pass.floor, seconds: pass.scan.seconds, rss: pass.scan.rssMax },
    };
  } finally {
    // One size at a time on disk: 8,000 sessions of a shape are ~4.4 GB.
    rmSync(where, { recursive: true, force: true });
  }
}

export async function slope(folder: string, shapes: readonly Shape[], quick: boolean): Promise<void> {
  const sizes = quick ? [20, 40, 80] : [500, 2000, 8000];
  const runs = quick ? 1 : 5;
  console.log(
    '| shape | sessions | MB | tail floor | cold, index absent | cold, index warm | first pass: own CPU (from launch to its stop; with the pass) / whole read | pass time | pass RSS max |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const shape of shapes) {
    for (const sessions of sizes) {
      const p = await point(folder, shape, sessions, runs);
      console.log(
        `| ${p.shape} | ${p.sessions} | ${p.mb.toFixed(0)} | ${p.tailMs.toFixed(0)} ms | ${p.absent.ms.toFixed(0)} ms = ${p.absent.ratio.toFixed(2)}× | ${p.warm.ms.toFixed(0)} ms = ${p.warm.ratio.toFixed(2)}× | ${p.pass.cpu.toFixed(2)} (${p.pass.gross.toFixed(2)}) / ${p.pass.floor.toFixed(2)} s = ${(p.pass.cpu / p.pass.floor).toFixed(2)}× | ${p.pass.seconds.toFixed(0)} s | ${p.pass.rss.toFixed(0)} MB |`,
      );
    }
  }
}
