// The answering end for a Lookout process that does not own the channel (`lookout answer`, a
// second face, a feed): it checks the socket and the token are this user's private files, sends
// one message and reads the one result.
import { createConnection } from 'node:net';
import type { CommandResult } from '../../engine/contract';
import { folderProblem, readToken, socketAt } from '../../providers/system/channel-checks';
import { readLines, sendLine } from './lines';
import { runFolder, socketPath, tokenPath } from './paths';
import type { ClientMessage } from './protocol';
import { serverMessageSchema } from './protocol';

const RESULT_WAIT_MS = 10_000;

export type ControlMessage = ClientMessage extends infer M ? (M extends { type: 'answer' | 'release' } ? Omit<M, 'token' | 'pid'> : never) : never;

/** The result, or the reason nothing could be sent. */
export function sendControl(home: string, message: ControlMessage): Promise<CommandResult> {
  const folder = folderProblem(runFolder(home));
  if (folder !== null) return Promise.resolve({ ok: false, error: `no running Lookout to answer through (${folder})` });
  const socket = socketAt(socketPath(home));
  if (socket.kind !== 'socket')
    return Promise.resolve({
      ok: false,
      error: socket.kind === 'none' ? 'no running Lookout holds this prompt (start `lookout watch` or the tray app)' : socket.why,
    });
  const token = readToken(tokenPath(home));
  if (token === null) return Promise.resolve({ ok: false, error: "Lookout's answer token is missing or not private" });
  return new Promise((resolve) => {
    const connection = createConnection(socketPath(home));
    const timer = setTimeout(() => finish({ ok: false, error: 'the running Lookout did not answer' }), RESULT_WAIT_MS);
    let done = false;
    function finish(result: CommandResult): void {
      if (done) return;
      done = true;
      clearTimeout(timer);
      connection.destroy();
      resolve(result);
    }
    connection.on('error', () => finish({ ok: false, error: 'no running Lookout holds this prompt' }));
    connection.on('close', () => finish({ ok: false, error: 'the running Lookout closed the connection' }));
    connection.on('connect', () => sendLine(connection, { ...message, token, pid: process.pid }));
    readLines(connection, (value) => {
      const parsed = serverMessageSchema.safeParse(value);
      if (parsed.success && parsed.data.type === 'result')
        finish(parsed.data.error === undefined ? { ok: parsed.data.ok } : { ok: parsed.data.ok, error: parsed.data.error });
    });
  });
}
