// Derives one session's row at `now`: observation, fold, review, claim (everything but order).
import { escalatedClaim, escalatedSince } from './escalation';
import type { SessionEvidence } from './evidence';
import { sessionKey } from './evidence';
import type { RuleApplication, Settings, UserFacts, VisitFact } from './facts';
import type { ChildView } from './children';
import { childState, dropInterruptedTurnChildren, summarizeChildren } from './children';
import type { Claim } from './claims';
import { deriveClaim, finishedTurn } from './claims';
import { sessionChangeAt } from './next-change';
import { clampEvidence } from './clamp';
import { decideLead, readDirect } from './direct';
import { foldLead } from './fold';
import type { Observation } from './observation';
import { observe } from './observation';
import type { EffectiveReview } from './review';
import { dueRules, effectiveReview, newActivitySince, workflowOf } from './review';
import { downgradeStale, readSignal } from './transcript';
import { rankOf, triageBand } from './triage';
import type { Band, ChildLiveness, Workflow } from './vocabulary';
import type { AnswerView } from './answer';
import { answerView, requestEvidence } from './answer';
import type { Row } from './row';
import type { RowSource } from './row-of';
import { toRow } from './row-of';

export interface DerivedSession {
  key: string;
  evidence: SessionEvidence;
  lastActivityAt: number | null;
  /** Every observation considered, in the order the engine weighed them (for `explain`). */
  considered: Observation[];
  observed: Observation;
  children: ChildView[];
  childSummary: { liveness: ChildLiveness; live: number };
  review: EffectiveReview;
  newActivitySince: boolean;
  workflow: Workflow;
  claim: Claim | null;
  muted: { until: number | null } | null;
  historical: boolean;
  band: Band;
  rank: number;
  idleStale: boolean;
  applied: RuleApplication[];
  /** A finish claim here depends on the working tree: the runtime should read it (§5). */
  wantsWorkingTree: boolean;
  /** The evidence as handed in (before clamping): a later evaluation may reuse this derivation. */
  input: SessionEvidence;
  /** This derivation holds strictly before this instant (given the same evidence and facts); null when nothing is timed, or when it was derived untimed (`once`). */
  changeAt: number | null;
  /** §13: the prompt Lookout can answer, an answer awaiting confirmation, or why not. */
  answer: AnswerView | null;
  /** The row as published, made with the derivation (a reused derivation gives the very same row). */
  row: Row;
}

const NO_CHILDREN: readonly ChildView[] = [];

function later(best: number | null, time: number | null): number | null {
  return time !== null && (best === null || time > best) ? time : best;
}

/** The last activity: the newest record, child or direct report. */
function newest(lastRecordAt: number | null, children: SessionEvidence['children'], direct: SessionEvidence['direct']): number | null {
  let best = lastRecordAt;
  for (const child of children) best = later(best, child.lastAt);
  for (const item of direct) best = later(best, item.at);
  return best;
}

/** No activity for `historicalAfter`, and no process known alive. */
function isHistorical(lastActivityAt: number | null, liveness: SessionEvidence['liveness'], now: number, timings: Settings['timings']): boolean {
  return lastActivityAt !== null && now - lastActivityAt > timings.historicalAfter && liveness.kind !== 'alive';
}

/**
 * A weekly limit outlasts historicalAfter: a row stopped by a limit stays listed until its reset,
 * and for historicalAfter after it, so "can go on" is told (R81).
 */
function limitPending(folded: Observation, now: number, timings: Settings['timings']): boolean {
  if (folded.state !== 'limited' || folded.resetsAt === undefined || folded.resetsAt === null) return false;
  return now <= folded.resetsAt + timings.historicalAfter;
}

/** A finish long enough to be told and not seen since (no visit after it): its working tree matters. */
function wantsTreeFor(finished: { at: number; length: number }, visit: VisitFact | undefined, timings: Settings['timings']): boolean {
  return finished.length >= timings.longJobFloor && (visit === undefined || visit.at < finished.at);
}

/**
 * Whether a session whose turn has a recorded end could want its working tree at `now`, from its
 * evidence and facts alone: every such session whose derivation wants one passes (property-tested),
 * so a one-shot command reads those folders' trees before it derives anything and derives each
 * session once (issue 27). A turn with no recorded end is left out: most are still running, and a
 * `git status` for each of their folders on every command would cost more than the rare one that
 * turns out to want its tree (the one-shot reads that one afterwards).
 */
export function mayWantWorkingTree(raw: SessionEvidence, facts: UserFacts, now: number, timings: Settings['timings']): boolean {
  // Clamping moves times, never makes a turn or its end: most sessions stop here, unclamped.
  if (raw.turn === null || raw.turn.endedAt === null) return false;
  const evidence = clampEvidence(raw, now);
  const { turn } = evidence;
  if (turn === null || turn.endedAt === null) return false;
  const lastActivityAt = newest(evidence.lastRecordAt, evidence.children, evidence.direct);
  if (isHistorical(lastActivityAt, evidence.liveness, now, timings)) return false;
  // A child may finish after the turn (the finish is then the child's): only without children is
  // the finish the turn's own end, as finishedTurn reads it.
  if (evidence.children.length > 0) return true;
  const finished = { at: turn.endedAt, length: Math.max(turn.durationMs ?? 0, turn.endedAt - turn.startedAt) };
  return wantsTreeFor(finished, facts.visits[sessionKey(evidence.provider, evidence.sessionId)], timings);
}

export function deriveSession(
  raw: SessionEvidence,
  facts: UserFacts,
  settings: Settings,
  now: number,
  onScreen: string | null,
  answerHint: string | null = null,
  timed = true,
): DerivedSession {
  const { timings } = settings;
  const evidence = clampEvidence(raw, now);
  const key = sessionKey(evidence.provider, evidence.sessionId);
  const { signal } = evidence;

  const inferred = signal === null ? null : downgradeStale(readSignal(signal, evidence.transcriptSource, now, timings), now, timings);
  // An answering hook's open request speaks for its prompt too (§13): it is waiting on it now.
  const readDirectly = readDirect(requestEvidence(evidence.direct, evidence.requests ?? [], now), evidence.liveness, signal, now, timings);
  // R4: only direct evidence from a process known to be alive is exempt from ageing.
  const direct = readDirectly === null || evidence.liveness.kind === 'alive' ? readDirectly : downgradeStale(readDirectly, now, timings, true);
  const lead =
    decideLead(inferred, direct, signal, evidence.liveness, evidence.answeredAt ?? null) ??
    observe('unknown', 'no-evidence', evidence.lastRecordAt ?? Number.NaN, evidence.transcriptSource, 'unknown', null, 'R1 no status-bearing record');

  // Most sessions have no children: their empty view is not built afresh for each.
  const views =
    evidence.children.length === 0
      ? NO_CHILDREN
      : dropInterruptedTurnChildren(
          evidence.children.map((child) => childState(child, now, timings)),
          signal,
          evidence.turn,
          new Map(evidence.children.map((child) => [child.id, child.startedAt])),
          evidence.interruptedTurns,
        );
  const pendingLaunches = signal?.kind === 'tool-call' ? signal.pending.filter((tool) => tool.category === 'subagent').length : 0;
  const childSummary = summarizeChildren(views, pendingLaunches);
  const folded = downgradeStale(foldLead(lead, views, childSummary.liveness), now, timings);

  const lastActivityAt = newest(evidence.lastRecordAt, evidence.children, evidence.direct);
  const historical = isHistorical(lastActivityAt, evidence.liveness, now, timings) && !limitPending(folded, now, timings);

  // Rules per project match by folder, provider and host; "after a finish" wants a turn that ended.
  const finishedNow = evidence.turn !== null && evidence.turn.endedAt !== null && (folded.state === 'idle' || folded.state === 'ended');
  const applied = dueRules(key, settings.rules, facts.ruleLedger, lastActivityAt, now, {
    cwd: evidence.cwd,
    provider: evidence.provider,
    host: null,
    finished: finishedNow,
  });
  const review = effectiveReview(key, facts, applied);
  const claimInput = {
    key,
    folded,
    leadSignal: signal,
    turn: evidence.turn,
    children: views,
    workingTree: evidence.workingTree,
    visit: facts.visits[key],
    attentionCall: facts.attentionCalls[key],
    notices: evidence.notices,
    lastActivityAt,
    historical,
    onScreen: onScreen === key,
    now,
    timings,
  };
  const asked = deriveClaim(claimInput);
  const answer = answerView({
    requests: evidence.requests ?? [],
    lead,
    direct: evidence.direct,
    children: evidence.children,
    claim: asked,
    hint: answerHint,
    now,
    timings,
  });
  // R73: answered from Lookout and not yet confirmed by the agent: working, no claim, not counted.
  const observed = answer?.state === 'answered' ? answeredObservation(answer) : folded;
  const raised = answer?.state === 'answered' ? null : asked;
  const workflow = workflowOf(observed, review.state, historical);
  const finished = historical ? null : finishedTurn(claimInput);
  const visit = facts.visits[key];
  const wantsWorkingTree = finished !== null && wantsTreeFor(finished, visit, timings);
  const mute = facts.mutes[key];
  const muting = mute !== undefined && (mute.until === null || mute.until > now) ? mute : null;
  // R61: a needs-you claim that outlasted the mute comes back, counted and notified once.
  const escalated = muting === null ? null : escalatedSince(raised, muting, visit, now, timings.escalateAfter);
  const claim = escalated === null || raised === null ? raised : escalatedClaim(raised, timings.escalateAfter);
  // A rule that mutes takes effect in the evaluation that applies it (the fact is written after).
  const mutedByRule = muting === null && applied.some((application) => application.mute === true);
  const muted = mutedByRule ? { until: null } : muting === null || escalated !== null ? null : { until: muting.until };

  const band = triageBand(claim, review.state, workflow, historical);
  const derived: RowSource = {
    key,
    evidence,
    lastActivityAt,
    considered: [inferred, direct, lead, observed === folded ? null : observed].filter((item): item is Observation => item !== null),
    observed,
    children: views.filter((child) => child.state !== 'done'),
    childSummary,
    review,
    newActivitySince: newActivitySince(review, lastActivityAt),
    workflow,
    claim,
    muted,
    historical,
    band,
    rank: rankOf(band),
    idleStale: observed.state === 'idle' && now - observed.at > timings.idleStaleAfter,
    applied,
    wantsWorkingTree,
    input: raw,
    changeAt: null,
    answer,
  };
  // Untimed (a one-shot's evaluation): no later instant reads it, so its change instant is not worked out.
  if (timed) derived.changeAt = sessionChangeAt(derived, facts, settings, now);
  return Object.assign(derived, { row: toRow(derived) });
}

function answeredObservation(answer: Extract<AnswerView, { state: 'answered' }>): Observation {
  const how = answer.answer === null ? '' : ` (${answer.answer})`;
  return observe(
    'running',
    'answered',
    answer.at,
    answer.request.source,
    'direct',
    `answered from Lookout${how} · waiting for the agent`,
    'R73 answered from Lookout; the agent has not confirmed it yet',
  );
}
