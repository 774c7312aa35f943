// `lookout status [--json] [--all] [--now <ISO>]`
import { parseArgs } from 'node:util';
import { resolveNow } from '../cli/now-option';
import { formatStatus } from '../cli/format-status';
import { jsonLine, printLines } from '../cli/terminal-text';
import { evaluateFromDisk, withHosts } from '../pipeline/one-shot';

export async function statusCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { json: { type: 'boolean' }, all: { type: 'boolean' }, now: { type: 'string' } },
    strict: true,
    allowPositionals: false,
  });
  const now = resolveNow(values.now);
  const snapshot = await withHosts(await evaluateFromDisk(now));
  const shown = values.all === true ? snapshot : { ...snapshot, sessions: snapshot.sessions.filter((row) => !row.historical) };
  if (values.json === true) process.stdout.write(`${jsonLine(shown)}\n`);
  else printLines(process.stdout, formatStatus(shown, now));
  return 0;
}
