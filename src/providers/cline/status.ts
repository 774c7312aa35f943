// Cline CLI's own session `status`, in the engine's words. The CLI says `running` while a turn
// streams or runs tools, `pending` while it asks to approve a tool call (and only then), `idle`
// once a turn is over (done, failed, or cut short with Escape), and, when the session itself is
// over, `completed`, `failed`, `cancelled`, `error` or `aborted` with `ended_at` and `exit_code`.
// It saves a turn's messages only as the turn settles, so the status says what the messages
// cannot yet: a new turn under way, a turn cut short.
import type { DirectEvidence, TranscriptSignal, TurnEvidence } from '../../engine';
import { leavesTurnOpen } from '../open-turn';
import type { MessagesFacts } from './messages';
import type { SessionRow } from './sessions-db';

export const STATUS_SOURCE = 'cline.sessions-db';

/** The session is over by the agent's own word. */
export const ENDED_STATUSES: ReadonlySet<string> = new Set(['completed', 'failed', 'cancelled', 'error', 'aborted']);
const FAILED_STATUSES: ReadonlySet<string> = new Set(['failed', 'error']);

export interface StatusFacts {
  signal: TranscriptSignal | null;
  turn: TurnEvidence | null;
  direct: DirectEvidence[];
}

function asksQuestion(signal: TranscriptSignal | null): boolean {
  return signal?.kind === 'tool-call' && signal.pending.some((tool) => tool.category === 'question');
}

const closeTurn = (turn: TurnEvidence | null, at: number): TurnEvidence | null => (turn === null ? null : { ...turn, endedAt: turn.endedAt ?? at });

/** What the CLI says of how a session ended: its status and exit code. */
function endDetail(row: SessionRow): string {
  return row.exitCode === null ? `session ${row.status}` : `session ${row.status} (exit ${row.exitCode})`;
}

/** The status and the saved messages of one session, as the signal, turn and direct evidence the engine reads. */
export function statusFacts(row: SessionRow, messages: MessagesFacts): StatusFacts {
  const at = row.updatedAt ?? row.endedAt ?? row.startedAt;
  const { signal, turn } = messages;
  if (at === null) return { signal, turn, direct: [] };
  const registry = (status: string, waitingFor: string | null = null): DirectEvidence[] => [
    { kind: 'registry-status', source: STATUS_SOURCE, at, status, waitingFor },
  ];
  const open = leavesTurnOpen(signal);
  switch (row.status) {
    case 'running':
    case 'pending': {
      // A turn begun after the messages were last saved: its prompt is not in the file yet.
      const fresh = !open && at > (messages.lastAt ?? Number.NEGATIVE_INFINITY);
      const current = fresh ? { signal: { kind: 'prompt', at } as const, turn: { startedAt: at, endedAt: null, durationMs: null } } : { signal, turn };
      if (row.status === 'pending') return { ...current, direct: registry('waiting', 'permission prompt') };
      // `running` covers the wait on its question tool too: the pending question says more.
      return { ...current, direct: asksQuestion(current.signal) ? [] : registry('busy') };
    }
    case 'idle':
      // Over, with its prompt or a call unanswered: cut short (Escape). An error or an answer is written.
      return open ? { signal: { kind: 'interrupted', at }, turn: closeTurn(turn, at), direct: registry('idle') } : { signal, turn, direct: registry('idle') };
    default:
      break;
  }
  if (!ENDED_STATUSES.has(row.status)) return { signal, turn, direct: registry(row.status) };
  const endedAt = row.endedAt ?? at;
  // The CLI marks a session whose process it found gone as failed: that is liveness, not the turn.
  if (FAILED_STATUSES.has(row.status) && row.marker === null && signal?.kind !== 'api-error') {
    return { signal: { kind: 'turn-end', at: endedAt, failed: true, detail: endDetail(row) }, turn: closeTurn(turn, endedAt), direct: [] };
  }
  if (open) return { signal: { kind: 'interrupted', at: endedAt }, turn: closeTurn(turn, endedAt), direct: [] };
  return { signal, turn, direct: [] };
}

/** A subagent's state in one signal: the child fold reads it like a lead's last record. */
export function childSignal(row: SessionRow, messages: MessagesFacts): TranscriptSignal | null {
  const at = row.updatedAt ?? row.endedAt ?? row.startedAt;
  if (at === null) return messages.signal;
  if (ENDED_STATUSES.has(row.status)) {
    return {
      kind: 'turn-end',
      at: row.endedAt ?? at,
      failed: FAILED_STATUSES.has(row.status),
      detail: FAILED_STATUSES.has(row.status) ? endDetail(row) : null,
    };
  }
  const facts = statusFacts(row, messages);
  // At work by its own word, with nothing newer written: work.
  if ((row.status === 'running' || row.status === 'pending') && !leavesTurnOpen(facts.signal)) return { kind: 'progress', at };
  return facts.signal;
}
