// `lookout explain <session> [--now <ISO>]`
import { parseArgs } from 'node:util';
import { resolveNow } from '../cli/now-option';
import { formatExplain } from '../cli/format-explain';
import { printLines } from '../text/terminal-text';
import { UsageError } from '../cli/usage-error';
import { evaluateFromDisk, findSession, remoteTarget } from './one-shot';
import { spawn } from 'node:child_process';
import type { HostConfig } from '../store/schema';
import { remoteLookout, sshArgv } from '../hosts/ssh-command';

export async function explainCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args, options: { now: { type: 'string' } }, strict: true, allowPositionals: true });
  const [query, ...extra] = positionals;
  if (query === undefined) throw new UsageError('explain needs a session (a key, an id, or 4+ characters of one)');
  if (extra.length > 0) throw new UsageError(`explain takes one session, got ${positionals.length}`);
  const now = resolveNow(values.now);
  const context = await evaluateFromDisk(now);
  const { evaluation } = context;
  const row = await findSession(context, query);
  if (row.host !== null) return explainRemote(remoteTarget(row, context));
  const derived = evaluation.derived.get(row.key);
  if (derived === undefined) throw new Error(`no derivation for ${row.key}`);
  printLines(process.stdout, formatExplain(row, derived, context.state.store.read(now).file.answers ?? []));
  return 0;
}

/** Reading cap for the remote's explanation: a few screens of text, never a flood. */
const EXPLAIN_MAX_BYTES = 256 * 1024;

/**
 * The evidence behind a session on another machine is that machine's to tell: its own
 * `lookout explain` over ssh, shown here as text only (its lines pass the terminal filter).
 */
function explainRemote({ host, key: inner }: { host: HostConfig; key: string }): Promise<number> {
  return new Promise((resolve, reject) => {
    // "--": a key there that starts with "-" is still a session, not an option.
    const child = spawn('ssh', sshArgv(host, remoteLookout(host, ['explain', '--', inner]), process.env), { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let bytes = 0;
    let why = '';
    let truncated = false;
    child.stdout.on('data', (chunk: Buffer) => {
      if (truncated) return;
      bytes += chunk.length;
      out.push(chunk);
      if (bytes <= EXPLAIN_MAX_BYTES) return;
      truncated = true;
      child.kill('SIGKILL');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      why = `${why}${chunk.toString('utf8')}`.slice(-2000);
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (truncated) {
        const text = Buffer.concat(out).subarray(0, EXPLAIN_MAX_BYTES).toString('utf8');
        printLines(process.stdout, [`on ${host.name}:`, ...text.split('\n'), `(cut at ${EXPLAIN_MAX_BYTES} bytes)`]);
        resolve(0);
        return;
      }
      if (code !== 0) {
        reject(new Error(`${host.name} could not explain it (${why.trim().split('\n').at(-1) ?? `exit ${code}`})`));
        return;
      }
      printLines(process.stdout, [`on ${host.name}:`, ...Buffer.concat(out).toString('utf8').trimEnd().split('\n')]);
      resolve(0);
    });
  });
}
