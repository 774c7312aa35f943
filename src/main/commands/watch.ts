// `lookout watch [--json] [--notify] [--phone]`: a new snapshot whenever a row changes; Ctrl-C exits
// cleanly with every watcher and timer disposed.
import { parseArgs } from 'node:util';
import { resolveNow } from '../cli/now-option';
import { untilInterrupted } from './interrupted';
import { flowingClock } from '../pipeline/clock';
import { formatStatus } from '../cli/format-status';
import { tableLayout } from '../cli/table-layout';
import { printLines } from '../text/terminal-text';
import { SnapshotLines } from '../cli/snapshot-json';
import { commandLineNotifier } from '../notify/notifier';
import { Runtime } from '../runtime/runtime';
import { openFromNotification } from './notification-open';
import { SnapshotOutput } from './watch-output';

export async function watchCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { json: { type: 'boolean' }, notify: { type: 'boolean' }, phone: { type: 'boolean' }, all: { type: 'boolean' }, now: { type: 'string' } },
    strict: true,
    allowPositionals: false,
  });
  // With --now, time starts there and flows on: a watch over recorded files behaves as it did then.
  const clock = flowingClock(resolveNow(values.now));
  const runtime = new Runtime({
    env: process.env,
    clock,
    notifier: values.notify === true ? commandLineNotifier() : null,
    onProblem: (line) => printLines(process.stderr, [line]),
    // --phone sends every notification to the phone channels too; without it, only phone.json's mode "always" does (R91).
    phone: { force: values.phone === true },
    // A notification's Open (or its click): the first session it named, as `lookout open` would.
    onOpen: (keys) => openFromNotification(runtime, keys),
  });
  // The table's lines are made safe piece by piece already (its marks may carry colour).
  const lines = new SnapshotLines();
  const output = new SnapshotOutput(
    process.stdout,
    (snapshot) =>
      values.json === true
        ? lines.line(snapshot)
        : [...formatStatus(snapshot, clock(), tableLayout(process.stdout, process.env, false)), ''].map((line) => `${line}\n`).join(''),
    (chunk) => (typeof chunk === 'string' ? undefined : lines.handedOn(chunk)),
  );
  runtime.onSnapshot((snapshot) => output.show(values.all === true ? snapshot : { ...snapshot, sessions: snapshot.sessions.filter((row) => !row.historical) }));
  // Listening for Ctrl-C before the first snapshot is out: a caller may stop it as soon as it reads one.
  const interrupted = untilInterrupted();
  await runtime.start();
  await interrupted;
  await runtime.dispose();
  return 0;
}
