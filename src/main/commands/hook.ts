// `lookout hook <entry>`: run by the agent, for a hook entry of the provider registry. Reads the
// JSON payload (stdin, or for a notify program the last argument), appends it to the spool,
// prints nothing, exits 0 — whatever happens, and quickly (a stdin that never closes is abandoned
// after a moment).
import { lookoutHome, spoolFolder } from '../store/home';
import { writeSpool } from '../hooks/spool-writer';
import { PAYLOAD_MAX_BYTES } from '../../providers/hooks/spool-format';
import { findAnswerHook, findHookEntry } from '../../providers';
import { askLookout, parsePayload } from '../answer/hook-client';
import { systemClock } from '../pipeline/clock';
import { lookoutHomeProblem } from '../store/private-home';

const STDIN_WAIT_MS = 1500;

function readStdin(): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (): void => {
      clearTimeout(timer);
      process.stdin.removeAllListeners();
      process.stdin.destroy();
      resolve(size > PAYLOAD_MAX_BYTES ? '' : Buffer.concat(chunks).toString('utf8'));
    };
    const timer = setTimeout(done, STDIN_WAIT_MS);
    process.stdin.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= PAYLOAD_MAX_BYTES) chunks.push(chunk);
    });
    process.stdin.on('end', done);
    process.stdin.on('error', done);
  });
}

export async function hookCommand(args: string[]): Promise<number> {
  try {
    // A home another user owns or can write is not trusted: the agent goes on as if Lookout were not there.
    if (lookoutHomeProblem(lookoutHome()) !== null) return 0;
    const [which, ...rest] = args;
    const answering = which === undefined ? undefined : findAnswerHook(which);
    if (answering !== undefined) {
      // The answering hook: only a decision is ever printed, and only the agent's own JSON.
      const payload = parsePayload(await readStdin());
      const output = payload === null ? '' : await askLookout(lookoutHome(), answering.hook, payload);
      // Written whole before the process exits (a pipe is asynchronous on some systems).
      if (output !== '') await new Promise<void>((resolve) => process.stdout.write(output, () => resolve()));
      return 0;
    }
    const folder = spoolFolder(lookoutHome());
    const found = which === undefined ? undefined : findHookEntry(which);
    if (found === undefined) return 0;
    const { provider, entry } = found;
    const payload = entry.payload === 'last-argument' ? (rest.at(-1) ?? '') : await readStdin();
    writeSpool(folder, provider.id, entry.channel, payload, systemClock());
  } catch {
    // Never disturb the agent.
  }
  return 0;
}
