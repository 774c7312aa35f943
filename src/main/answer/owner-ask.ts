// One question to the running Lookout over the answer channel it owns (issue 51): the same private
// folder, socket and token checks as `lookout answer`. Kept free of the rest of the command line:
// the executable's loader asks with it before loading the command line at all.
import { createConnection } from 'node:net';
import { folderProblem, readToken, socketAt } from '../../providers/system/channel-checks';
import { runFolder, socketPath, tokenPath } from './paths';

/** How long a running Lookout has to answer before the files are read instead. */
export const OWNER_WAIT_MS = 1500;

/** How a question ended: the reply taken whole; no one to ask, or a reply not of the kind asked; no reply within the bound. */
export type OwnerReply<T> = { kind: 'reply'; value: T } | { kind: 'none' } | { kind: 'silent' };

/**
 * Reads a reply chunk by chunk: the value once the reply is whole, `undefined` while more is to
 * come, `null` for a reply that is not the one asked for.
 */
export type ReplyReader<T> = (chunk: Buffer) => T | null | undefined;

/** Asks the channel's owner `message` (the token added) and reads its reply with `read`; silent when no byte comes for `waitMs`. */
export function askOwner<T>(home: string, message: object, waitMs: number, read: ReplyReader<T>): Promise<OwnerReply<T>> {
  if (folderProblem(runFolder(home)) !== null || socketAt(socketPath(home)).kind !== 'socket') return Promise.resolve({ kind: 'none' });
  const token = readToken(tokenPath(home));
  if (token === null) return Promise.resolve({ kind: 'none' });
  return new Promise((resolve) => {
    const connection = createConnection(socketPath(home));
    let done = false;
    const timer = setTimeout(() => finish({ kind: 'silent' }), waitMs);
    function finish(reply: OwnerReply<T>): void {
      if (done) return;
      done = true;
      clearTimeout(timer);
      connection.destroy();
      resolve(reply);
    }
    connection.on('error', () => finish({ kind: 'none' }));
    connection.on('close', () => finish({ kind: 'none' }));
    connection.on('connect', () => connection.write(`${JSON.stringify({ ...message, token })}\n`));
    connection.on('data', (chunk: Buffer) => {
      const value = read(chunk);
      if (value === null) finish({ kind: 'none' });
      else if (value !== undefined) finish({ kind: 'reply', value });
      // Silent means no byte for the bound: a long reply that keeps coming is not cut off.
      else timer.refresh();
    });
  });
}

/** A reader of one reply line, up to `maxBytes`, handed to `parse` whole (a line is one JSON object). */
export function lineReader<T>(maxBytes: number, parse: (line: string) => T | null): ReplyReader<T> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  return (chunk) => {
    const newline = chunk.indexOf(10);
    chunks.push(newline === -1 ? chunk : chunk.subarray(0, newline));
    bytes += chunk.length;
    if (bytes > maxBytes) return null;
    return newline === -1 ? undefined : parse(Buffer.concat(chunks).toString('utf8'));
  };
}

/** A reply line's object when it is of `type` (`{"type":"status",…}`); null for anything else (a refusal, no rows yet, not JSON). */
export function replyOfType(line: string, type: string): Readonly<Record<string, unknown>> | null {
  let reply: unknown;
  try {
    reply = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof reply !== 'object' || reply === null || Array.isArray(reply)) return null;
  const record = reply as Readonly<Record<string, unknown>>;
  return record.type === type ? record : null;
}
