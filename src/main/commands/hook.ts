// `lookout hook <claude|codex|codex-notify>`: run by the agent. Reads the JSON payload (stdin, or
// for Codex's notify the last argument), appends it to the spool, prints nothing, exits 0 —
// whatever happens, and quickly (a stdin that never closes is abandoned after a moment).
import { lookoutHome, spoolFolder } from '../store/home';
import { writeSpool } from '../hooks/spool-writer';
import { PAYLOAD_MAX_BYTES } from '../../providers/hooks/spool-format';

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
    const [which, ...rest] = args;
    const folder = spoolFolder(lookoutHome());
    if (which === 'codex-notify') writeSpool(folder, 'codex', 'notify', rest.at(-1) ?? '', Date.now());
    else if (which === 'claude' || which === 'codex') writeSpool(folder, which, 'hook', await readStdin(), Date.now());
  } catch {
    // Never disturb the agent.
  }
  return 0;
}
