// `lookout feed`: what another machine's Lookout runs here over ssh (issue 13). The server itself
// lives in hosts/feed-server.ts, beside its client; this entry sets up this machine's runtime.
import { parseArgs } from 'node:util';
import { resolveNow } from '../cli/now-option';
import { printLines } from '../text/terminal-text';
import { flowingClock } from '../pipeline/clock';
import { Runtime } from '../runtime/runtime';
import { untilInterrupted } from './interrupted';
import { planOpen } from '../open/plan';
import { openTarget } from '../open/session-process';
import { systemProbes } from '../open/probes';
import { serveFeed } from '../hosts/feed-server';

export async function feedCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { now: { type: 'string' } }, strict: true, allowPositionals: false });
  const clock = flowingClock(resolveNow(values.now));
  const problem = (line: string) => printLines(process.stderr, [line]);
  // This machine's own sessions only: never the hosts its own settings name (no loops, no relays).
  const runtime = new Runtime({ env: process.env, clock, notifier: null, onProblem: problem, hosts: false, phone: false });
  // The other end gone (ssh closed): nothing more to say.
  process.stdout.on('error', () => process.exit(0));
  const server = serveFeed({
    runtime,
    now: clock,
    input: process.stdin,
    output: process.stdout,
    problem,
    // The tmux pane the live process runs in, found here as `open` would find it.
    locate: (session) => {
      const plan = planOpen({ ...openTarget(session.evidence, session.observed.state, runtime.roots), resume: [], live: true }, null, systemProbes());
      return plan.kind === 'tmux-pane' ? plan.pane : null;
    },
  });

  const interrupted = untilInterrupted();
  await runtime.start();
  // Stops when told to, or when the machine that asked goes away (its ssh closes our stdin).
  await Promise.race([interrupted, server.closed]);
  await runtime.dispose();
  // Interrupted with its input still open: let go of it, or the process waits for an end of input.
  server.close();
  process.stdin.destroy();
  return 0;
}
