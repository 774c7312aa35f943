// `lookout status [--json] [--all] [--wide] [--now <ISO>] [--cold]`: the rows the running Lookout
// shows when one runs (issue 51: one round trip over its private channel), else one evaluation of
// the files; `--now` and `--cold` always read the files. The JSON says which (`from`).
import { parseArgs } from 'node:util';
import { resolveNow } from '../cli/now-option';
import { formatStatus, tableLayout } from '../cli/format-status';
import { jsonLineBytes, printMadeSafe } from '../text/terminal-text';
import { evaluateFromDisk, fromRunning, withHosts } from './one-shot';

export async function statusCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { json: { type: 'boolean' }, all: { type: 'boolean' }, wide: { type: 'boolean' }, now: { type: 'string' }, cold: { type: 'boolean' } },
    strict: true,
    allowPositionals: false,
  });
  const now = resolveNow(values.now);
  const running = await fromRunning(values);
  const snapshot = running ?? (await withHosts(await evaluateFromDisk(now)));
  const shown = values.all === true ? snapshot : { ...snapshot, sessions: snapshot.sessions.filter((row) => !row.historical) };
  if (values.json === true) process.stdout.write(jsonLineBytes({ ...shown, from: running === null ? 'files' : 'running' }));
  else printMadeSafe(process.stdout, formatStatus(shown, now, tableLayout(process.stdout, process.env, values.wide === true)));
  return 0;
}
