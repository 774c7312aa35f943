// `lookout status [--json] [--all] [--wide] [--now <ISO>] [--cold]`: the rows the running Lookout
// shows when one runs (issue 51: the executable's loader asks it to print them, running-status.ts;
// here, a Lookout too old for that is asked for its rows), else one evaluation of the files;
// `--now` and `--cold` always read the files. The JSON says which (`from`).
import { parseArgs } from 'node:util';
import type { Snapshot } from '../../engine';
import { resolveNow } from '../cli/now-option';
import { STATUS_OPTIONS } from '../cli/status-options';
import { statusOutput } from '../cli/status-output';
import { tableLayout } from '../cli/table-layout';
import { fromRunning } from './running-rows';

export async function statusCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: STATUS_OPTIONS, strict: true, allowPositionals: false });
  const now = resolveNow(values.now);
  const running = await fromRunning(values);
  const snapshot = running ?? (await filesSnapshot(now));
  const ask = { all: values.all === true, json: values.json === true, layout: tableLayout(process.stdout, process.env, values.wide === true) };
  for (const part of statusOutput(snapshot, running === null ? 'files' : 'running', ask, now)) process.stdout.write(part);
  return 0;
}

/** The files read here (loaded only then: a status from the running Lookout never pays for the pipeline). */
async function filesSnapshot(now: number): Promise<Snapshot> {
  const { evaluateFromDisk, withHosts } = await import('./one-shot');
  return withHosts(await evaluateFromDisk(now));
}
