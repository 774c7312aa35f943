// Children's states and their liveness summary (docs/status-model.md §2, R10, R12).
import type { ChildEvidence, TranscriptSignal, TurnEvidence } from './evidence';
import type { ChildLiveness, ChildState } from './vocabulary';
import type { Timings } from './timings';
import { readSignal } from './transcript';

export interface ChildView {
  id: string;
  name: string;
  role: ChildEvidence['role'];
  source: string;
  state: ChildState;
  /** For a waiting child: what it asks and how. */
  request: { kind: 'approval' | 'input'; detail: string } | null;
  at: number;
  /** When the child finished, for R29's "the job is not finished while children run". */
  finishedAt: number | null;
}

/** A child's state from its own newest record, by the lead's rules (§11). R1 holds: pending is working. */
export function childState(child: ChildEvidence, now: number, timings: Timings): ChildView {
  const base = { id: child.id, name: child.name, role: child.role, source: child.source };
  if (child.request !== null && (child.signal === null || child.signal.at <= child.request.at)) {
    return { ...base, state: 'waiting', request: { kind: child.request.kind, detail: child.request.detail }, at: child.request.at, finishedAt: null };
  }
  if (child.signal === null) return { ...base, state: 'unverifiable', request: null, at: child.lastAt, finishedAt: null };
  const observation = readSignal(child.signal, child.source, now, timings);
  const at = observation.at;
  if (observation.state === 'idle') return { ...base, state: 'done', request: null, at, finishedAt: at };
  if (now - child.lastAt > timings.staleAfter) return { ...base, state: 'unverifiable', request: null, at, finishedAt: null };
  switch (observation.state) {
    case 'awaiting-input':
    case 'awaiting-approval':
      return {
        ...base,
        state: 'waiting',
        request: { kind: observation.state === 'awaiting-approval' ? 'approval' : 'input', detail: observation.detail ?? 'waiting' },
        at,
        finishedAt: null,
      };
    case 'error':
    case 'limited': // a child stopped by a limit: its task failed, nobody is asked (R80)
      return { ...base, state: 'blocked', request: null, at, finishedAt: null };
    case 'running':
    case 'running-subagents':
    case 'unknown': // an ambiguous pending tool in a child is work, never a request (R1)
      return { ...base, state: 'working', request: null, at, finishedAt: null };
    case 'ended':
      return { ...base, state: 'done', request: null, at, finishedAt: at };
  }
}

/**
 * R12: a lead turn ended by interrupt takes the children it started with it — the turn that was
 * just interrupted, and any earlier interrupted turn the provider reports (a new turn does not
 * bring them back).
 */
export function dropInterruptedTurnChildren(
  children: readonly ChildView[],
  leadSignal: TranscriptSignal | null,
  turn: TurnEvidence | null,
  starts: ReadonlyMap<string, number>,
  interruptedTurns: readonly { startedAt: number; endedAt: number }[] = [],
): ChildView[] {
  const spans = [...interruptedTurns];
  if (leadSignal?.kind === 'interrupted' && turn !== null) spans.push({ startedAt: turn.startedAt, endedAt: leadSignal.at });
  if (spans.length === 0) return [...children];
  return children.map((child) => {
    const started = starts.get(child.id) ?? Number.NEGATIVE_INFINITY;
    const span = spans.find((item) => started >= item.startedAt && started <= item.endedAt);
    return span !== undefined && child.state !== 'done' ? { ...child, state: 'done', finishedAt: span.endedAt } : child;
  });
}

/** R10: the summary, highest first; `unverifiable` contributes nothing. */
export function summarizeChildren(children: readonly ChildView[], pendingLaunches: number): { liveness: ChildLiveness; live: number } {
  let waiting = 0;
  let working = 0;
  let monitoring = 0;
  for (const child of children) {
    if (child.state === 'waiting') waiting += 1;
    else if (child.state === 'working' || child.state === 'blocked') {
      if (child.role === 'watcher') monitoring += 1;
      else working += 1;
    }
  }
  // A pending launch is a working child until its transcript shows up; never count one twice.
  working = Math.max(working, pendingLaunches);
  const live = waiting + working + monitoring;
  if (waiting > 0) return { liveness: 'waiting', live };
  if (working > 0) return { liveness: 'working', live };
  if (monitoring > 0) return { liveness: 'monitoring', live };
  return { liveness: 'none', live };
}
