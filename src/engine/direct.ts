// Direct evidence (a live registry's status, a hook event) and how it meets the transcript (R6, R8).
import type { DirectEvidence, Liveness, TranscriptSignal } from './evidence';
import type { Timings } from './timings';
import type { Observation } from './observation';
import { isAsking, observe } from './observation';
import { decisivePending } from './transcript';

const APPROVAL_WAITS = new Set(['permission prompt', 'sandbox request', 'worker request']);
const INPUT_WAITS = new Set(['input needed', 'dialog open']);

/** The ambiguous pending call behind the transcript's last record, if that record is one. */
function pendingDetail(signal: TranscriptSignal | null): string | null {
  if (signal?.kind !== 'tool-call') return null;
  return decisivePending(signal.pending)?.detail ?? null;
}

/** §11 registry `status` mapping; anything unrecognised is R6. */
function readRegistryStatus(evidence: Extract<DirectEvidence, { kind: 'registry-status' }>, signal: TranscriptSignal | null): Observation {
  const { source, at, status, waitingFor } = evidence;
  switch (status) {
    case 'busy': {
      const pending = pendingDetail(signal);
      return pending === null
        ? observe('running', 'provider-busy', at, source, 'direct', null, '§11 registry busy')
        : observe('running', 'tool-pending', at, source, 'direct', pending, 'R3 registry busy with a tool call pending');
    }
    case 'waiting': {
      const wait = (waitingFor ?? '').trim();
      if (APPROVAL_WAITS.has(wait)) {
        return observe('awaiting-approval', 'approval-requested', at, source, 'direct', pendingDetail(signal) ?? wait, '§11 registry waiting for approval');
      }
      if (INPUT_WAITS.has(wait)) {
        return observe('awaiting-input', 'input-requested', at, source, 'direct', pendingDetail(signal) ?? wait, '§11 registry waiting for input');
      }
      return observe('awaiting-input', 'provider-waiting', at, source, 'direct', wait === '' ? 'waiting' : `waiting: ${wait}`, '§11 registry waiting');
    }
    case 'idle':
      return observe('idle', 'provider-idle', at, source, 'direct', null, '§11 registry idle');
    default:
      return observe('unknown', 'unrecognized-status', at, source, 'direct', `status "${status}"`, 'R6 unrecognised registry status');
  }
}

/** A hook event as an observation; a mid-turn mark lapses after hookWorkingHold (§9). */
function readHook(
  evidence: Extract<DirectEvidence, { kind: 'hook' }>,
  now: number,
  timings: Timings,
  signal: TranscriptSignal | null = null,
): Observation | null {
  const { source, at, detail } = evidence;
  switch (evidence.event) {
    // A hook with no words of its own is named by the call the transcript has pending.
    case 'permission-request':
      return observe('awaiting-approval', 'approval-requested', at, source, 'direct', detail ?? pendingDetail(signal), 'hook permission request');
    case 'input-request':
      return observe('awaiting-input', 'input-requested', at, source, 'direct', detail ?? pendingDetail(signal), 'hook input request');
    case 'mid-turn':
      return now - at < timings.hookWorkingHold
        ? observe('running', 'provider-busy', at, source, 'direct', detail, 'hook mid-turn mark (hookWorkingHold)')
        : null;
    case 'stop':
      return observe('idle', 'turn-finished', at, source, 'direct', null, 'hook turn stopped');
    case 'idle-notice':
      // The turn is over (~60 s ago); how it ended is another record's to say.
      return observe('idle', 'provider-idle', at, source, 'direct', null, 'hook idle notice');
    case 'stop-failure':
      return observe('error', 'api-error', at, source, 'direct', detail, 'hook turn failed');
    case 'session-end':
      return observe('ended', 'session-end-hook', at, source, 'direct', null, 'hook session ended');
    case 'settled':
      // It replaces any earlier mark (a request it answered) and leaves the state to the transcript.
      return null;
  }
}

/** A registry's idle or an idle notice: the turn is over, but not how it ended (issue 22). */
function onlyTurnOver(observation: Observation): boolean {
  return observation.state === 'idle' && observation.reason === 'provider-idle';
}

/** A hook that says how a turn ended: a stop or a failure. */
function isTurnOutcome(evidence: DirectEvidence): boolean {
  return evidence.kind === 'hook' && (evidence.event === 'stop' || evidence.event === 'stop-failure');
}

/**
 * The newest usable direct observation; registry statuses count only from a live process. When
 * the newest only says the turn is over, a hook that said how it ended (a StopFailure a few ms
 * before the registry's idle) tells the outcome.
 */
export function readDirect(
  direct: readonly DirectEvidence[],
  liveness: Liveness,
  signal: TranscriptSignal | null,
  now: number,
  timings: Timings,
): Observation | null {
  let best: Observation | null = null;
  let outcome: Observation | null = null;
  for (const evidence of direct) {
    const observation =
      evidence.kind === 'hook' ? readHook(evidence, now, timings, signal) : liveness.kind === 'alive' ? readRegistryStatus(evidence, signal) : null;
    if (observation === null) continue;
    if (best === null || observation.at >= best.at) best = observation;
    if (isTurnOutcome(evidence) && (outcome === null || observation.at >= outcome.at)) outcome = observation;
  }
  if (best !== null && outcome !== null && onlyTurnOver(best)) return { ...outcome, rule: `${outcome.rule}; ${best.rule} says only that the turn is over` };
  return best;
}

/** Records that prove a request was answered (R8). */
function answers(signal: TranscriptSignal): boolean {
  return signal.kind === 'tool-result' || signal.kind === 'interrupted' || signal.kind === 'prompt';
}

/** Records that end a turn, and so say how it ended. */
function endsTurn(signal: TranscriptSignal): boolean {
  return (
    signal.kind === 'turn-end' ||
    signal.kind === 'api-error' ||
    signal.kind === 'usage-limit' ||
    signal.kind === 'interrupted' ||
    (signal.kind === 'assistant-text' && signal.stop === 'end')
  );
}

/**
 * Once the agent says the turn is over, its last record says how: an ending, or the assistant's
 * text that was not leading to a tool call (Claude writes it before its stop reason arrives).
 */
function saysHowItEnded(signal: TranscriptSignal): boolean {
  return endsTurn(signal) || (signal.kind === 'assistant-text' && signal.stop !== 'tool-use');
}

function deathRule(why: Extract<Liveness, { kind: 'dead' }>['why']): string {
  switch (why) {
    case 'pid-reused':
      return 'R7 pid reused by another process';
    case 'no-process':
      return '§11 registry pid not running';
    case 'no-writer':
      return 'R7 a turn left open and no process holds its writer lock';
  }
}

/**
 * R8: direct beats inferred, except that a newer transcript record answering a direct request
 * clears it — the last record, or an earlier answer that later records followed (`answeredAt`).
 * Liveness that is gone ends the session whatever the transcript says (§11, R7).
 */
export function decideLead(
  inferred: Observation | null,
  direct: Observation | null,
  signal: TranscriptSignal | null,
  liveness: Liveness,
  answeredAt: number | null = null,
): Observation | null {
  // R80: a turn a usage limit stopped stays stopped by it when the agent is quit: the reset still comes.
  if ((liveness.kind === 'dead' || liveness.kind === 'removed') && inferred?.state === 'limited' && signal?.kind === 'usage-limit') {
    return {
      ...inferred,
      rule: `R80 the limit stopped the turn before the agent went (${liveness.kind === 'dead' ? deathRule(liveness.why) : '§11 registry entry removed'})`,
    };
  }
  if (liveness.kind === 'dead') {
    const why = deathRule(liveness.why);
    return observe('ended', 'process-gone', liveness.at, liveness.source, 'inferred', null, why);
  }
  if (liveness.kind === 'removed') {
    return observe('ended', 'registry-removed', liveness.at, liveness.source, 'inferred', null, '§11 registry entry removed while watched');
  }
  if (direct === null) return inferred;
  // R80: a hook or registry that says the turn ended or failed does not say a limit stopped it;
  // the agent's own limit record does (an idle notice after a limit is no recovery).
  if (inferred !== null && signal?.kind === 'usage-limit' && (direct.state === 'error' || direct.state === 'idle')) {
    return { ...inferred, rule: `R80 the agent's limit record says why the turn ended (${direct.rule})` };
  }
  // An idle registry says the turn is over, not how: a transcript that ended it says how (issue 22).
  if (inferred !== null && signal !== null && onlyTurnOver(direct) && saysHowItEnded(signal)) {
    const ended = inferred.state === 'running' ? { ...inferred, state: 'idle' as const, reason: 'turn-finished' as const } : inferred;
    return { ...ended, rule: `R8 ${direct.rule} ends the turn; the transcript says how (${inferred.rule})` };
  }
  // A working mark (a prompt hook, a busy registry) is superseded by a newer record ending the turn:
  // an agent that fires no hook when a turn fails must not read running (issue 22).
  if (inferred !== null && signal !== null && direct.state === 'running' && endsTurn(signal) && signal.at > direct.at) {
    return { ...inferred, rule: `R8 a newer transcript record ended the turn (${inferred.rule}) after ${direct.rule}` };
  }
  if (inferred !== null && signal !== null && isAsking(direct.state) && answers(signal) && signal.at > direct.at) {
    return { ...inferred, rule: `R8 newer ${signal.kind} answered the direct request` };
  }
  if (inferred !== null && isAsking(direct.state) && answeredAt !== null && answeredAt > direct.at) {
    return { ...inferred, rule: 'R8 a newer transcript answer (then more records) cleared the direct request' };
  }
  return { ...direct, rule: inferred === null ? direct.rule : `R8 direct beats inferred (${direct.rule})` };
}
