// `lookout next [--json]`: the first row that wants attention (R33), or "0 waiting".
import { parseArgs } from 'node:util';
import { SCHEMA_VERSION } from '../../engine';
import { resolveNow } from '../cli/now-option';
import { formatStatus } from '../cli/format-status';
import { jsonLine, printLines } from '../cli/terminal-text';
import { evaluateFromDisk } from '../pipeline/one-shot';

export async function nextCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { json: { type: 'boolean' }, now: { type: 'string' } }, strict: true, allowPositionals: false });
  const now = resolveNow(values.now);
  const { evaluation } = await evaluateFromDisk(now);
  const { next, snapshot } = evaluation;
  if (values.json === true) {
    process.stdout.write(`${jsonLine({ schemaVersion: SCHEMA_VERSION, now: snapshot.now, waiting: snapshot.attention.count, next })}\n`);
  } else if (next === null) {
    printLines(process.stdout, ['0 waiting']);
  } else {
    // The table without its header line: the count says it instead.
    printLines(process.stdout, [`${snapshot.attention.count} waiting; next:`, ...formatStatus({ ...snapshot, sessions: [next] }, now).slice(1)]);
  }
  return 0;
}
