// `lookout next [--json]`: the first row that wants attention (R33), or "0 waiting".
import { parseArgs } from 'node:util';
import { SCHEMA_VERSION } from '../../engine';
import { resolveNow } from '../cli/now-option';
import { formatStatus } from '../cli/format-status';
import { evaluateFromDisk } from '../pipeline/one-shot';

export async function nextCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { json: { type: 'boolean' }, now: { type: 'string' } }, strict: true, allowPositionals: false });
  const now = resolveNow(values.now);
  const { evaluation } = await evaluateFromDisk(now);
  const { next, snapshot } = evaluation;
  if (values.json === true) {
    process.stdout.write(`${JSON.stringify({ schemaVersion: SCHEMA_VERSION, now: snapshot.now, waiting: snapshot.attention.count, next })}\n`);
  } else if (next === null) {
    process.stdout.write('0 waiting\n');
  } else {
    const table = formatStatus({ ...snapshot, sessions: [next] }, now).split('\n').slice(1).join('\n');
    process.stdout.write(`${snapshot.attention.count} waiting; next:\n${table}\n`);
  }
  return 0;
}
