// The plugin's way in to the answer channel: the same checks the hook client and `lookout answer`
// make (providers/system/channel-checks.ts, bundled in), plus a running owner, as the sh shim asks.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { folderProblem, readToken, socketAt } from '../../system/channel-checks';
import { config } from './config';

export const socketFile = (): string => join(config().run, 'answer.sock');

/** The token, when Lookout's run folder, socket and token are this user's private files and their owner runs. */
export function channelToken(): string | null {
  try {
    const run = config().run;
    if (folderProblem(run) !== null || socketAt(socketFile()).kind !== 'socket') return null;
    const owner = Number(readFileSync(join(run, 'answer.pid'), 'utf8').trim());
    if (!Number.isInteger(owner) || owner <= 0) return null;
    // Throws when no such process runs: no Lookout to ask.
    process.kill(owner, 0);
    return readToken(join(run, 'answer.token'));
  } catch {
    return null;
  }
}
