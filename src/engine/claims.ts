// Attention claims and when they stand or decay (docs/status-model.md §4, R29).
import type { AttentionCall, VisitFact } from './facts';
import type { ProgramNotice, TranscriptSignal, TurnEvidence, WorkingTree } from './evidence';
import type { ChildView } from './children';
import type { ClaimKind } from './vocabulary';
import type { Timings } from './timings';
import type { Observation } from './observation';
import { isAsking } from './observation';
import { formatDuration } from './duration';

export interface Claim {
  kind: ClaimKind;
  since: number;
  expiresAt: number | null;
  ambiguous: boolean;
  detail: string | null;
  /** The claim's identity in the notified ledger (R41). */
  id: string;
  source: string;
  /** A limit claim's reset instant, when the agent gave one (R80–R82). */
  resetsAt?: number | null;
}

export interface ClaimInput {
  key: string;
  folded: Observation;
  leadSignal: TranscriptSignal | null;
  turn: TurnEvidence | null;
  children: readonly ChildView[];
  workingTree: WorkingTree;
  visit: VisitFact | undefined;
  attentionCall: AttentionCall | undefined;
  notices: readonly ProgramNotice[];
  lastActivityAt: number | null;
  historical: boolean;
  onScreen: boolean;
  now: number;
  timings: Timings;
}

function claim(key: string, kind: ClaimKind, since: number, source: string, detail: string | null, extra?: Partial<Claim>): Claim {
  return { kind, since, expiresAt: null, ambiguous: false, detail, id: `${key}|${kind}|${since}`, source, ...extra };
}

/** The one claim a row carries, strongest first; historical rows carry none (R5). */
export function deriveClaim(input: ClaimInput): Claim | null {
  if (input.historical) return null;
  return askingClaim(input) ?? expiringClaim(input) ?? failedClaim(input) ?? limitClaim(input) ?? finishClaim(input);
}

function askingClaim({ key, folded, timings }: ClaimInput): Claim | null {
  if (isAsking(folded.state)) return claim(key, 'needs-you', folded.at, folded.source, folded.detail);
  if (folded.state === 'unknown' && folded.reason === 'tool-pending') {
    // The call turned ambiguous when its grace ran out (R3); that is when the claim began.
    const since = folded.at + timings.toolPendingGrace;
    const detail = `${folded.detail ?? 'tool call'} — may be waiting for approval`;
    return { ...claim(key, 'needs-you', since, folded.source, detail), ambiguous: true, id: `${key}|needs-you~|${since}` };
  }
  return null;
}

/** Program notifications and `lookout attention` calls expire after claimExpiry (§5). */
function expiringClaim({ key, notices, attentionCall, visit, lastActivityAt, now, timings }: ClaimInput): Claim | null {
  let best: Claim | null = null;
  for (const notice of notices) {
    const expiresAt = notice.at + timings.claimExpiry;
    const resumed = lastActivityAt !== null && lastActivityAt > notice.at;
    if (now >= expiresAt || resumed) continue;
    if (best === null || notice.at > best.since) best = claim(key, 'needs-you', notice.at, notice.source, notice.message, { expiresAt });
  }
  if (attentionCall !== undefined) {
    const expiresAt = attentionCall.at + timings.claimExpiry;
    const visited = visit !== undefined && visit.at >= attentionCall.at;
    if (now < expiresAt && !visited && (best === null || attentionCall.at > best.since)) {
      best = claim(key, 'needs-you', attentionCall.at, 'lookout.attention', attentionCall.message ?? 'attention requested', { expiresAt });
    }
  }
  return best;
}

function failedClaim({ key, folded, visit }: ClaimInput): Claim | null {
  if (folded.state !== 'error') return null;
  if (visit !== undefined && visit.at >= folded.at) return null;
  return claim(key, 'failed', folded.at, folded.source, folded.detail ?? 'the turn ended in an error');
}

/**
 * R81: a turn a usage limit stopped waits for its reset (not counted: nothing to do yet); from the
 * reset on it can go on (counted like ready-for-review) until a visit after the reset or a new
 * turn. Without a reset instant it stays limited: a time is never guessed (R80).
 */
function limitClaim({ key, folded, visit, now }: ClaimInput): Claim | null {
  if (folded.state !== 'limited') return null;
  const resetsAt = folded.resetsAt ?? null;
  if (resetsAt === null || now < resetsAt) {
    return claim(key, 'limited', folded.at, folded.source, folded.detail ?? 'stopped by a usage limit', { expiresAt: resetsAt, resetsAt });
  }
  if (visit !== undefined && visit.at >= resetsAt) return null;
  return claim(key, 'limit-reset', resetsAt, folded.source, 'can go on: the usage limit has reset', { resetsAt });
}

/** R29: the job finishes when the folded row turns idle; its length runs from the first prompt. */
export function finishedTurn(input: ClaimInput): { at: number; length: number } | null {
  const { folded, leadSignal, turn, children } = input;
  if (folded.state !== 'idle' || turn === null) return null;
  if (folded.reason === 'interrupted' || leadSignal?.kind === 'interrupted') return null;
  let at = turn.endedAt ?? folded.at;
  for (const child of children) {
    if (child.finishedAt !== null && child.finishedAt >= turn.startedAt && child.finishedAt > at) at = child.finishedAt;
  }
  return { at, length: Math.max(turn.durationMs ?? 0, at - turn.startedAt) };
}

function finishClaim(input: ClaimInput): Claim | null {
  const { key, folded, workingTree, visit, onScreen, now, timings } = input;
  const finished = finishedTurn(input);
  if (finished === null || finished.length < timings.longJobFloor) return null;
  // A visit after the finish has seen the result: neither claim is news any more.
  if (visit !== undefined && visit.at >= finished.at) return null;
  const took = `finished in ${formatDuration(finished.length)}`;
  if (workingTree.kind === 'read' && workingTree.changedFiles > 0 && workingTree.fingerprint !== (visit?.fingerprint ?? null)) {
    if (onScreen) return null;
    const files = `${workingTree.changedFiles} file${workingTree.changedFiles === 1 ? '' : 's'} changed`;
    return claim(key, 'ready-for-review', finished.at, folded.source, `${took}, ${files}`);
  }
  const expiresAt = finished.at + timings.finishedTick;
  if (now >= expiresAt) return null;
  return claim(key, 'finished', finished.at, folded.source, took, { expiresAt });
}
