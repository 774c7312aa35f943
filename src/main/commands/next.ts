// `lookout next [--json] [--open] [--cold]`: the first row that wants attention (R33), or "0 waiting";
// `--open` opens it as `lookout open` would (the tray's global key does the same: issue 15). The
// rows are the running Lookout's when one runs (issue 51), unless --cold or --open.
import { parseArgs } from 'node:util';
import type { Snapshot } from '../../engine';
import { SCHEMA_VERSION, rowCounted } from '../../engine';
import { resolveNow } from '../cli/now-option';
import { formatStatus } from '../cli/format-status';
import { tableLayout } from '../cli/table-layout';
import { jsonLine, printLines, printMadeSafe } from '../text/terminal-text';
import type { CommandEvaluation } from './one-shot';
import { evaluateFromDisk, withHosts } from './one-shot';
import { fromRunning } from './running-rows';
import { UsageError } from '../cli/usage-error';
import { openRow } from './open';

export async function nextCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { json: { type: 'boolean' }, open: { type: 'boolean' }, now: { type: 'string' }, cold: { type: 'boolean' } },
    strict: true,
    allowPositionals: false,
  });
  const now = resolveNow(values.now);
  if (values.open === true && values.json === true) throw new UsageError('next takes --json or --open, not both');
  // Opening needs this machine's own reading of the session (its process, its folder): the files.
  const running = values.open === true ? null : await fromRunning(values);
  let context: CommandEvaluation | null = null;
  let snapshot: Snapshot;
  if (running !== null) snapshot = running;
  else {
    context = await evaluateFromDisk(now);
    snapshot = await withHosts(context);
  }
  // R33 over every machine's rows: the first counted one in the merged order.
  const next = context !== null && context.state.hosts.length === 0 ? context.evaluation.next : (snapshot.sessions.find(rowCounted) ?? null);
  if (values.open === true && next !== null && context !== null) return openRow(next, context, false, now);
  if (values.json === true) {
    process.stdout.write(
      `${jsonLine({ schemaVersion: SCHEMA_VERSION, now: snapshot.now, waiting: snapshot.attention.count, next, from: running === null ? 'files' : 'running' })}\n`,
    );
  } else if (next === null) {
    printLines(process.stdout, ['0 waiting']);
  } else {
    // The table without its header line: the count says it instead.
    printMadeSafe(process.stdout, [
      `${snapshot.attention.count} waiting; next:`,
      ...formatStatus({ ...snapshot, sessions: [next] }, now, tableLayout(process.stdout, process.env, false)).slice(1),
    ]);
  }
  return 0;
}
