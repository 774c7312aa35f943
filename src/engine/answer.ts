// §13: whether a row's prompt can be answered from Lookout, and what the row reads just after an
// answer (R70–R73). The channel holds requests; the engine decides which one the row shows.
import type { AnswerRequest, ChildEvidence, DirectEvidence, SessionEvidence } from './evidence';
import type { Claim } from './claims';
import type { Observation } from './observation';
import { isAsking } from './observation';
import type { Timings } from './timings';

/**
 * A hook writes its event to the spool just before it brings the request to Lookout; a spool time
 * in whole seconds is dated at the end of its second. A request this close after (or before) the
 * ask it matches is that ask.
 */
const REQUEST_SLACK_MS = 2000;

export type AnswerView =
  /** `askedAt`: the hook event that raised the prompt the request answers. */
  | { state: 'open'; request: AnswerRequest; keysFrom: number; askedAt: number }
  /** R73: answered from Lookout, the agent has not confirmed yet. */
  | { state: 'answered'; request: AnswerRequest; at: number; answer: string | null; from: string | null }
  /** R73: the prompt was answered in the terminal first; the request was let go. */
  | { state: 'elsewhere'; request: AnswerRequest; at: number }
  | { state: 'unavailable'; why: string };

/**
 * When the hook event that raised the prompt the row shows was fired: the lead's latest hook event
 * while the lead asks (a registry restating the wait later does not move it; any hook event after
 * it — a tool run, a denial, a stop — replaces it), or the child's for a subagent's request.
 */
function askAt(request: AnswerRequest, input: AnswerInput): number | null {
  if (request.agentId !== null) return input.children.find((item) => item.id === request.agentId)?.request?.at ?? null;
  if (!isAsking(input.lead.state) || input.lead.confidence !== 'direct') return null;
  const hook = latestHook(input.direct);
  // The prompt's own hook event (its spool line), unless a notice restating some prompt came after it.
  if (hook !== null && !hook.restates && (hook.event === 'permission-request' || hook.event === 'input-request')) return hook.at;
  // No hook event since the request (its spool line lost, or only a notice restating it): the request raised it.
  return hook === null || hook.restates === true || hook.at <= request.at + REQUEST_SLACK_MS ? request.at : null;
}

/** The session's latest hook event (the spool keeps one per session). */
function latestHook(direct: readonly DirectEvidence[]): Extract<DirectEvidence, { kind: 'hook' }> | null {
  let latest: Extract<DirectEvidence, { kind: 'hook' }> | null = null;
  for (const item of direct) if (item.kind === 'hook' && (latest === null || item.at > latest.at)) latest = item;
  return latest;
}

/**
 * An open request no hook event has followed is direct evidence of its prompt: its hook waits on
 * it now, whether or not the spool line of the event that raised it was written (a hook cut short
 * on a loaded machine). A later hook event (the tool ran, a denial, a stop) outweighs it.
 */
export function requestEvidence(direct: readonly DirectEvidence[], requests: readonly AnswerRequest[], now: number): readonly DirectEvidence[] {
  const hook = latestHook(direct);
  const standing = requests.filter(
    (request) =>
      request.closed === null &&
      request.agentId === null &&
      now < request.deadline &&
      (hook === null || hook.restates === true || hook.at <= request.at + REQUEST_SLACK_MS),
  );
  if (standing.length === 0) return direct;
  const raised = standing.map(
    (request): DirectEvidence => ({
      kind: 'hook',
      source: request.source,
      at: request.at,
      event: request.prompt === 'approval' ? 'permission-request' : 'input-request',
      detail: `${request.tool}: ${request.text.split('\n')[0] ?? ''}`.slice(0, 100),
    }),
  );
  return [...direct, ...raised];
}

/** The request is the prompt still standing: raised by the hook event it came with, nothing since. */
function stands(request: AnswerRequest, input: AnswerInput): boolean {
  const at = askAt(request, input);
  return at !== null && at <= request.at + REQUEST_SLACK_MS;
}

function newestFirst(requests: readonly AnswerRequest[]): AnswerRequest[] {
  return [...requests].sort((a, b) => b.at - a.at);
}

export interface AnswerInput {
  requests: readonly AnswerRequest[];
  lead: Observation;
  /** The session's direct evidence: its latest hook event says whether anything happened since the prompt. */
  direct: readonly DirectEvidence[];
  children: readonly ChildEvidence[];
  /** The claim the row raised: R70 wants a non-ambiguous needs-you. */
  claim: Claim | null;
  /** Why this agent's prompts cannot be answered from Lookout, in the row's words. */
  hint: string | null;
  now: number;
  timings: Timings;
}

/**
 * R73 first: a request answered from Lookout whose prompt still stands reads `answered` for
 * answeredHold. Then R70: the newest open request matching the row's non-ambiguous needs-you.
 */
export function answerView(input: AnswerInput): AnswerView | null {
  const { claim, now, timings } = input;
  const requests = newestFirst(input.requests);
  const newestOpen = requests.find((request) => request.closed === null && now < request.deadline && stands(request, input));
  for (const request of requests) {
    const closed = request.closed;
    // A newer prompt already waiting replaces the "answered" reading at once (issue 47): it is never hidden behind it.
    if (newestOpen !== undefined && newestOpen.at > request.at) break;
    if (closed === null || now >= closed.at + timings.answeredHold) continue;
    if (closed.how === 'answered' && stands(request, input)) return { state: 'answered', request, at: closed.at, answer: closed.answer, from: closed.from };
    if (closed.how === 'elsewhere') return { state: 'elsewhere', request, at: closed.at };
  }
  if (claim === null || claim.kind !== 'needs-you') return null;
  if (claim.ambiguous) return { state: 'unavailable', why: 'Lookout cannot be sure this is a prompt: answer in the terminal' };
  const open = newestOpen;
  const askedAt = open === undefined ? null : askAt(open, input);
  // R72 counts from when the prompt could first be seen: the first evaluation that shows it, kept by the channel's owner.
  if (open !== undefined && askedAt !== null)
    return { state: 'open', request: open, keysFrom: Math.max(open.at + timings.answerGrace, open.keysFrom ?? now + timings.answerGrace), askedAt };
  return { state: 'unavailable', why: input.hint ?? 'answer in the terminal' };
}

/**
 * Whether the session moved on after the request came: a hook event, a transcript record or an
 * answer after it (the child's, for a subagent's request), or its process gone. `askedAt`: the
 * hook event the request was shown on, once it was (an event right after it already counts). Only then is a
 * request its row does not show let go as answered elsewhere: a slow read of the spool must never
 * let a waiting hook go.
 */
export function movedOnSince(request: AnswerRequest, evidence: SessionEvidence, askedAt: number | null = null): boolean {
  // After the hook event that raised it, when the row showed it; else after the request, with the slack.
  const after = askedAt ?? request.at + REQUEST_SLACK_MS;
  if (evidence.liveness.kind === 'dead' || evidence.liveness.kind === 'removed') return true;
  if (request.agentId !== null) return evidence.children.some((child) => child.id === request.agentId && child.lastAt > after);
  if (evidence.direct.some((item) => item.kind === 'hook' && item.restates !== true && item.at > after)) return true;
  return (evidence.signal?.at ?? 0) > after || (evidence.answeredAt ?? 0) > after;
}
