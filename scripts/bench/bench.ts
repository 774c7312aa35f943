// `npm run bench`: Lookout's performance, as ratios against baselines measured in the same run.
// Cold status over a synthetic history (issue 3); more sections join as the runtime grows.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runBaseline } from './baselines';
import { measure, median, pairedRatio, pairedRounds, writeRssWrapper } from './measure';
import type { History } from './synthetic-history';
import { QUICK_SESSIONS, historyPlan } from './history-plan';
import type { Shape } from './shapes';
import { pickShapes } from './shapes';
import { slope, slopeSizes } from './slope';
import { writeHistory } from './synthetic-history';
import { historicalIdle, watchLatency } from './watch-latency';
import { hookLatency } from './hook-latency';
import { answerLatency } from './answer-latency';
import { newProviders } from './new-providers';
import { feedOnlyBench, hostsBench } from './hosts';
import { removedWhenInterrupted } from './interrupted';

const MB = 1024 * 1024;

/** Writes `shape` at `sessions` into its own folder under `folder`, and says so. */
function writeShape(folder: string, shape: Shape, sessions: number): History {
  const started = Date.now();
  const history = shape.write(join(folder, `${shape.name}-${sessions}`), sessions, Date.now());
  console.log(
    `history "${shape.name}": ${sessions} sessions, ${(history.bytes / MB).toFixed(0)} MB (${shape.says}), written in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return history;
}

function coldStatus(folder: string, history: History, quick: boolean, label: string): void {
  const say = (line: string) => console.log(`[${label}] ${line}`);
  const slug = label.replace(/\W+/g, '-');
  const list = join(folder, `files-${slug}.txt`);
  writeFileSync(list, history.files.join('\n'));
  const wrapper = writeRssWrapper(folder);
  const self = resolve(__filename);
  const cli = resolve(__dirname, 'cli.cjs');
  const env = { ...process.env, CLAUDE_CONFIG_DIR: history.claudeRoot, CODEX_HOME: history.codexRoot, LOOKOUT_HOME: join(folder, `home-${slug}`) };
  const runs = quick ? 1 : 7;
  const wholeRuns: number[] = [];
  // Every reader is timed with what it reads in the page cache (a warm-up round each), and the
  // status and tail runs are interleaved. The whole-file reads come last, so a gigabyte streamed
  // between rounds cannot push out the file heads that only status reads.
  measure(wrapper, self, ['--baseline', 'whole', list], env);
  measure(wrapper, cli, ['status', '--json', '--all'], env);
  measure(wrapper, self, ['--baseline', 'tail', list], env);
  const rounds = pairedRounds(wrapper, cli, self, list, env, runs);
  const { statusRuns, tailRuns, rows } = rounds;
  for (let run = 0; run < runs; run += 1) wholeRuns.push(measure(wrapper, self, ['--baseline', 'whole', list], env).ms);
  const status = median(statusRuns);
  const tail = median(tailRuns);
  const whole = median(wholeRuns);
  const each = (values: number[]) => values.map((value) => value.toFixed(0)).join(', ');
  say(`cold \`lookout status --json --all\`: ${status.toFixed(0)} ms for ${rows} rows (median of ${runs}: ${each(statusRuns)})`);
  say(`baseline, last 64 KB of every file: ${tail.toFixed(0)} ms (${each(tailRuns)})`);
  say(`baseline, every file whole: ${whole.toFixed(0)} ms (${each(wholeRuns)})`);
  // The rounds above ran with the session index the warm-up run wrote (issue 14: "index warm").
  // Each status run is paired with the tail run just before it: this shared machine's speed drifts
  // over seconds, and a pair sees the same conditions. Both estimates are printed.
  const paired = pairedRatio(rounds);
  say(
    `ratio status / tail baseline, session index warm: ${paired.toFixed(2)}x, median of the ${runs} paired rounds (target ≤ 1.5x); ratio of the medians ${(status / tail).toFixed(2)}x`,
  );
  say(`ratio whole / tail baseline: ${(whole / tail).toFixed(2)}x (for scale)`);
  say(`peak memory of status: ${rounds.peakMb.toFixed(0)} MB (target < 200 MB)`);
  indexVariants(wrapper, cli, self, list, env, runs, say);
}

/** Issue 14: cold status with the session index absent (removed before each run) and corrupt. */
function indexVariants(wrapper: string, cli: string, self: string, list: string, env: NodeJS.ProcessEnv, runs: number, say: (line: string) => void): void {
  const home = env.LOOKOUT_HOME ?? '';
  const index = join(home, 'index.json');
  const clearAside = () => {
    for (const name of readdirSync(home)) if (name.startsWith('index.json.corrupt-')) rmSync(join(home, name));
  };
  const variants: { name: string; target: string; before: () => void }[] = [
    { name: 'absent', target: '≤ 3x', before: () => rmSync(index, { force: true }) },
    {
      name: 'corrupt',
      target: '≤ 3x, one problem said',
      before: () => {
        clearAside();
        writeFileSync(index, '{"version": 2, "providers": {"claude": ');
      },
    },
  ];
  for (const variant of variants) {
    const rounds = pairedRounds(wrapper, cli, self, list, env, runs, variant.before);
    say(
      `ratio status / tail baseline, session index ${variant.name}: ${pairedRatio(rounds).toFixed(2)}x (target ${variant.target}); status ${median(rounds.statusRuns).toFixed(0)} ms, tail ${median(rounds.tailRuns).toFixed(0)} ms`,
    );
  }
  clearAside();
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args[0] === '--baseline') {
    runBaseline(args[1] ?? 'tail', args[2] ?? '');
    return;
  }
  // `--write SHAPE SESSIONS FOLDER`: a history written and kept, to profile a command on it (docs/performance.md).
  if (args[0] === '--write') {
    const [shape] = pickShapes(['--shape', args[1] ?? '']);
    const history = shape?.write(args[3] ?? '', Number(args[2]), Date.now());
    if (history !== undefined)
      console.log(
        `CLAUDE_CONFIG_DIR=${history.claudeRoot} CODEX_HOME=${history.codexRoot} # ${history.files.length} sessions, ${(history.bytes / 2 ** 20).toFixed(0)} MB`,
      );
    return;
  }
  const quick = args.includes('--quick');
  const folder = mkdtempSync(join(tmpdir(), 'lookout-bench-'));
  removedWhenInterrupted(folder);
  try {
    const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
    // `--only hosts`: that section alone (it needs no history).
    if (only === 'feed') {
      await feedOnlyBench(folder, quick);
      return;
    }
    if (only === 'hosts') {
      await hostsBench(folder, quick);
      return;
    }
    // `--only hooks`: the hooks' cost to the agent alone (spool hook and answering hook).
    if (only === 'hooks') {
      hookLatency(folder, quick ? 10 : 100);
      await answerLatency(quick ? 10 : 100);
      return;
    }
    const shapes = pickShapes(args);
    const sessions = quick ? QUICK_SESSIONS : 2000;
    // `--only status`: the cold status rounds alone (session index warm, absent, corrupt), each shape.
    if (only === 'status') {
      for (const shape of shapes) coldStatus(folder, writeShape(folder, shape, sessions), quick, `${shape.name} ${sessions}`);
      return;
    }
    // `--only watch`: the live runtime's sections over a fresh history of each shape, without the cold status rounds.
    if (only === 'watch') {
      for (const shape of shapes)
        await watchLatency(
          writeShape(folder, shape, sessions),
          join(folder, `watch-${shape.name}`),
          quick ? 10 : 100,
          quick ? 5 : 60,
          `[${shape.name} ${sessions}] `,
          quick ? 1 : 5,
        );
      await historicalIdle(folder, quick);
      return;
    }
    // `--only slope`: how cold and warm status, the first pass and the `watch` after it grow (500, 2,000, 8,000, 20,000 sessions; `--sessions` picks).
    if (only === 'slope') {
      await slope(folder, shapes, slopeSizes(args, quick), quick);
      return;
    }
    // `--only providers`: every provider's sessions beside a fresh history, cold status over all of them.
    if (only === 'providers') {
      await newProviders(folder, writeHistory(folder, historyPlan(quick), Date.now()), quick);
      return;
    }
    if (only !== undefined) throw new Error(`--only: unknown section ${only}; the sections are status, watch, slope, providers, hooks, hosts, feed`);
    console.log(`Lookout benchmark${quick ? ' (quick)' : ''} · node ${process.version} · ${new Date().toISOString()}`);
    hookLatency(folder, quick ? 10 : 100);
    await answerLatency(quick ? 10 : 100);
    let mixed: History | null = null;
    for (const shape of shapes) {
      const history = writeShape(folder, shape, sessions);
      if (shape.name === 'mixed') mixed = history;
      coldStatus(folder, history, quick, `${shape.name} ${sessions}`);
      await watchLatency(history, join(folder, `watch-${shape.name}`), quick ? 10 : 100, quick ? 5 : 60, `[${shape.name} ${sessions}] `, quick ? 1 : 5);
    }
    await historicalIdle(folder, quick);
    await newProviders(folder, mixed ?? writeHistory(join(folder, 'providers'), historyPlan(quick), Date.now()), quick);
    await hostsBench(folder, quick);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  process.exit(0);
}

void main();
