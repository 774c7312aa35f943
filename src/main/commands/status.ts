// `lookout status [--json] [--all] [--wide] [--now <ISO>] [--cold]`: the rows the running Lookout
// shows when one runs (issue 51: one round trip over its private channel), else one evaluation of
// the files; `--now` and `--cold` always read the files. The JSON says which (`from`).
import { parseArgs } from 'node:util';
import type { Snapshot } from '../../engine';
import { resolveNow } from '../cli/now-option';
import { formatStatus, tableLayout } from '../cli/format-status';
import { jsonLineBytes, printMadeSafe } from '../text/terminal-text';
import { fromRunning } from './running-rows';

export async function statusCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { json: { type: 'boolean' }, all: { type: 'boolean' }, wide: { type: 'boolean' }, now: { type: 'string' }, cold: { type: 'boolean' } },
    strict: true,
    allowPositionals: false,
  });
  const now = resolveNow(values.now);
  const running = await fromRunning(values);
  const snapshot = running ?? (await filesSnapshot(now));
  const shown = values.all === true ? snapshot : { ...snapshot, sessions: snapshot.sessions.filter((row) => !row.historical) };
  if (values.json === true) process.stdout.write(jsonLineBytes({ ...shown, from: running === null ? 'files' : 'running' }));
  else printMadeSafe(process.stdout, formatStatus(shown, now, tableLayout(process.stdout, process.env, values.wide === true)));
  return 0;
}

/** The files read here (loaded only then: a status from the running Lookout never pays for the pipeline). */
async function filesSnapshot(now: number): Promise<Snapshot> {
  const { evaluateFromDisk, withHosts } = await import('./one-shot');
  return withHosts(await evaluateFromDisk(now));
}
