// `lookout status [--json] [--all] [--wide] [--now <ISO>]`
import { parseArgs } from 'node:util';
import { resolveNow } from '../cli/now-option';
import { formatStatus, tableLayout } from '../cli/format-status';
import { jsonLineBytes, printMadeSafe } from '../text/terminal-text';
import { evaluateFromDisk, withHosts } from './one-shot';

export async function statusCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { json: { type: 'boolean' }, all: { type: 'boolean' }, wide: { type: 'boolean' }, now: { type: 'string' } },
    strict: true,
    allowPositionals: false,
  });
  const now = resolveNow(values.now);
  const snapshot = await withHosts(await evaluateFromDisk(now));
  const shown = values.all === true ? snapshot : { ...snapshot, sessions: snapshot.sessions.filter((row) => !row.historical) };
  if (values.json === true) process.stdout.write(jsonLineBytes(shown));
  else printMadeSafe(process.stdout, formatStatus(shown, now, tableLayout(process.stdout, process.env, values.wide === true)));
  return 0;
}
