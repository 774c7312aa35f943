// `lookout watch [--json] [--notify]`: a new snapshot whenever a row changes; Ctrl-C exits
// cleanly with every watcher and timer disposed.
import { parseArgs } from 'node:util';
import { resolveNow } from '../cli/now-option';
import { untilInterrupted } from './interrupted';
import { flowingClock } from '../pipeline/clock';
import { formatStatus, tableLayout } from '../cli/format-status';
import { jsonLine, printLines, printMadeSafe } from '../cli/terminal-text';
import { commandLineNotifier } from '../notify/notifier';
import { Runtime } from '../runtime/runtime';
import { openLocal } from '../open/open-local';

export async function watchCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { json: { type: 'boolean' }, notify: { type: 'boolean' }, all: { type: 'boolean' }, now: { type: 'string' } }, strict: true, allowPositionals: false });
  // With --now, time starts there and flows on: a watch over recorded files behaves as it did then.
  const clock = flowingClock(resolveNow(values.now));
  const runtime = new Runtime({
    env: process.env,
    clock,
    notifier: values.notify === true ? commandLineNotifier() : null,
    onProblem: (line) => printLines(process.stderr, [line]),
    // A notification's Open (or its click): the first session it named, as `lookout open` would.
    onOpen: (keys) => {
      const [first] = keys;
      if (first === undefined) return;
      openLocal(runtime, first).then(
        (line) => printLines(process.stderr, [`lookout: ${line}`]),
        (error: unknown) => printLines(process.stderr, [`lookout: could not open ${first}: ${error instanceof Error ? error.message : String(error)}`]),
      );
    },
  });
  runtime.onSnapshot((snapshot) => {
    const shown = values.all === true ? snapshot : { ...snapshot, sessions: snapshot.sessions.filter((row) => !row.historical) };
    if (values.json === true) process.stdout.write(`${jsonLine(shown)}\n`);
    else printMadeSafe(process.stdout, [...formatStatus(shown, clock(), tableLayout(process.stdout, process.env, false)), '']);
  });
  // Listening for Ctrl-C before the first snapshot is out: a caller may stop it as soon as it reads one.
  const interrupted = untilInterrupted();
  await runtime.start();
  await interrupted;
  await runtime.dispose();
  return 0;
}
