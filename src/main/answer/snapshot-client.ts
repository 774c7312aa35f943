// `lookout status` asking the running Lookout (the tray app, `watch`, `serve`) for the rows it
// shows, over the answer channel it owns (issue 51): the same private socket and token checks as
// `lookout answer`. Any doubt — no channel, a token not private, no reply within the bound, a
// reply that is not a snapshot — gives null, and the command reads the files itself.
import type { Snapshot } from '../../engine';
import { askOwner, lineReader, replyOfType } from './owner-ask';

/** A snapshot line is a whole history's rows: far above a prompt's cap, still bounded. */
const SNAPSHOT_LINE_MAX_BYTES = 256 * 1024 * 1024;

/** The running Lookout's snapshot (historical rows only with `all`), or null when there is none to ask or it does not answer within `waitMs`. */
export async function runningSnapshot(home: string, waitMs: number, all: boolean): Promise<Snapshot | null> {
  const reply = await askOwner(home, { type: 'snapshot', pid: process.pid, all }, waitMs, lineReader(SNAPSHOT_LINE_MAX_BYTES, snapshotReply));
  if (reply.kind !== 'reply') return null;
  // The contract's schemas are loaded only for a reply to check (~11 ms): with no Lookout running, never.
  const { snapshotSchema } = await import('../../engine/contract');
  const parsed = snapshotSchema.safeParse(reply.value.snapshot);
  return parsed.success ? parsed.data : null;
}

/** The reply when it is a snapshot's; null for anything else (a refusal, no rows yet). */
function snapshotReply(line: string): { snapshot: unknown } | null {
  const reply = replyOfType(line, 'snapshot');
  return reply === null ? null : { snapshot: reply.snapshot };
}
