// `lookout explain <session> [--now <ISO>]`
import { parseArgs } from 'node:util';
import { resolveNow } from '../cli/now-option';
import { formatExplain } from '../cli/format-explain';
import { printLines } from '../cli/terminal-text';
import { matchSession } from '../cli/session-match';
import { UsageError } from '../cli/usage-error';
import { evaluateFromDisk } from '../pipeline/one-shot';

export async function explainCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args, options: { now: { type: 'string' } }, strict: true, allowPositionals: true });
  const [query, ...extra] = positionals;
  if (query === undefined) throw new UsageError('explain needs a session (a key, an id, or 4+ characters of one)');
  if (extra.length > 0) throw new UsageError(`explain takes one session, got ${positionals.length}`);
  const now = resolveNow(values.now);
  const { evaluation } = await evaluateFromDisk(now);
  const row = matchSession(evaluation.snapshot.sessions, query);
  const derived = evaluation.derived.get(row.key);
  if (derived === undefined) throw new Error(`no derivation for ${row.key}`);
  printLines(process.stdout, formatExplain(row, derived));
  return 0;
}
