// Whether a Cline CLI session still has its process. The session row's `pid` is the process that
// created it: the terminal client itself, or the hub daemon hosting it — which outlives every
// client (and a resumed session keeps its first pid). So a hosted session is alive while a client
// is attached (the hub's event log), or while the hub still runs its turn with none; the others
// by their own pid, its start time checked against the session's (R7).
import type { Liveness } from '../../engine';
import { pidAlive, processStartedAt } from '../system/process';
import type { Attachment, Disconnects, Hub } from './hub';
import { attachedClients } from './hub';
import type { SessionRow } from './sessions-db';
import { ENDED_STATUSES, STATUS_SOURCE } from './status';

export const HUB_SOURCE = 'cline.hub-events';

/** The process that created a session starts before it (the clock's slack aside). */
const START_SLACK_MS = 2_000;

/** A session the hub's event log knows: its hub and who is attached. */
export interface Hosted {
  hub: Hub;
  attachment: Attachment;
  disconnects: Disconnects;
}

export type OwnerCheck = (pid: number, startedAt: number | null) => 'alive' | 'no-process' | 'pid-reused';

export function checkOwner(pid: number, startedAt: number | null): 'alive' | 'no-process' | 'pid-reused' {
  if (!pidAlive(pid)) return 'no-process';
  const started = processStartedAt(pid);
  return startedAt !== null && started !== null && started > startedAt + START_SLACK_MS ? 'pid-reused' : 'alive';
}

export function sessionLiveness(row: SessionRow, hosted: Hosted | null, hubs: readonly Hub[], now: number, check: OwnerCheck = checkOwner): Liveness {
  const at = row.updatedAt ?? now;
  // The CLI found the owner gone itself and said so.
  if (row.marker !== null) return { kind: 'dead', source: STATUS_SOURCE, pid: row.marker.pid ?? row.pid, at: row.marker.at ?? at, why: 'no-process' };
  // Over by its own word: its status and messages say how; no process is expected.
  if (ENDED_STATUSES.has(row.status)) return { kind: 'unreported' };
  if (hosted !== null) {
    const { hub, attachment, disconnects } = hosted;
    if (!hub.alive) return { kind: 'dead', source: HUB_SOURCE, pid: hub.pid, at, why: 'no-process' };
    // Last heard of from a hub that has since restarted: the hub that ran it is gone.
    if (hub.startedAt !== null && attachment.at < hub.startedAt - START_SLACK_MS) return { kind: 'dead', source: HUB_SOURCE, pid: null, at, why: 'no-process' };
    const { attached, goneAt } = attachedClients(attachment, disconnects, hub);
    // With no terminal the hub still runs a turn to its end (a client killed mid-turn, a background run).
    if (attached || row.status === 'running') return { kind: 'alive', pid: hub.pid };
    return { kind: 'dead', source: HUB_SOURCE, pid: null, at: Math.max(goneAt, at), why: 'no-process' };
  }
  if (row.pid === null) return { kind: 'unreported' };
  // A hub's pid with no event left to say who is attached: it proves nothing of the terminal.
  if (hubs.some((hub) => hub.alive && hub.pid === row.pid)) return { kind: 'unreported' };
  const result = check(row.pid, row.startedAt);
  return result === 'alive' ? { kind: 'alive', pid: row.pid } : { kind: 'dead', source: STATUS_SOURCE, pid: row.pid, at, why: result };
}
