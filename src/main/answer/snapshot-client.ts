// `lookout status` asking the running Lookout (the tray app, `watch`, `serve`) for the rows it
// shows, over the answer channel it owns (issue 51): the same private socket and token checks as
// `lookout answer`. Any doubt — no channel, a token not private, no reply within the bound, a
// reply that is not a snapshot — gives null, and the command reads the files itself.
import { createConnection } from 'node:net';
import type { Snapshot } from '../../engine';
import { snapshotSchema } from '../../engine/contract';
import { folderProblem, readToken, socketAt } from '../../providers/system/channel-checks';
import { sendLine } from './lines';
import { runFolder, socketPath, tokenPath } from './paths';

/** A snapshot line is a whole history's rows: far above a prompt's cap, still bounded. */
const SNAPSHOT_LINE_MAX_BYTES = 256 * 1024 * 1024;

/** The running Lookout's snapshot (historical rows only with `all`), or null when there is none to ask or it does not answer within `waitMs`. */
export function runningSnapshot(home: string, waitMs: number, all: boolean): Promise<Snapshot | null> {
  if (folderProblem(runFolder(home)) !== null || socketAt(socketPath(home)).kind !== 'socket') return Promise.resolve(null);
  const token = readToken(tokenPath(home));
  if (token === null) return Promise.resolve(null);
  return new Promise((resolve) => {
    const connection = createConnection(socketPath(home));
    const chunks: Buffer[] = [];
    let bytes = 0;
    let done = false;
    const timer = setTimeout(() => finish(null), waitMs);
    function finish(snapshot: Snapshot | null): void {
      if (done) return;
      done = true;
      clearTimeout(timer);
      connection.destroy();
      resolve(snapshot);
    }
    connection.on('error', () => finish(null));
    connection.on('close', () => finish(null));
    connection.on('connect', () => sendLine(connection, { type: 'snapshot', token, pid: process.pid, all }));
    connection.on('data', (chunk: Buffer) => {
      const newline = chunk.indexOf(10);
      chunks.push(newline === -1 ? chunk : chunk.subarray(0, newline));
      bytes += chunk.length;
      if (bytes > SNAPSHOT_LINE_MAX_BYTES) return finish(null);
      if (newline !== -1) finish(snapshotOf(Buffer.concat(chunks).toString('utf8')));
      return undefined;
    });
  });
}

/** The reply's snapshot, checked against the contract; null for anything else (a refusal, no rows yet). */
function snapshotOf(line: string): Snapshot | null {
  let reply: unknown;
  try {
    reply = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof reply !== 'object' || reply === null || (reply as { type?: unknown }).type !== 'snapshot') return null;
  const parsed = snapshotSchema.safeParse((reply as { snapshot?: unknown }).snapshot);
  return parsed.success ? parsed.data : null;
}
