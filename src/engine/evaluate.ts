// The engine's one entry: evidence + user facts + settings + now → rows, attention, decisions.
// Pure: no clock, no I/O. The runtime carries out the decisions it returns.
import { notifyLevel } from './rules';
import type { SessionEvidence } from './evidence';
import type { RuleApplication, Settings, UserFacts } from './facts';
import type { NotificationPlan, NotifyCandidate } from './notify';
import { claimsToNotify, planNotification } from './notify';
import type { Row, Snapshot } from './row';
import type { AnswerView } from './answer';
import { SCHEMA_VERSION, iso } from './row';
import type { DerivedSession } from './session';
import { deriveSession } from './session';
import { earliest } from './next-change';
import type { Timeline } from './timeline';
import { advanceTimeline, dueCount, timelineOf } from './timeline';
import { lowerBound } from './lower-bound';
import { plainEqual } from './plain-equal';
import { sessionKey, treeReadAt } from './evidence';
import type { Rankable } from './triage';
import { attentionOf, compareTriage, isCounted } from './triage';

export interface EvaluationInput {
  sessions: readonly SessionEvidence[];
  facts: UserFacts;
  settings: Settings;
  now: number;
  /** The session selected in an open popover: never notified, never awarded ready-for-review. */
  onScreen: string | null;
  /**
   * The previous evaluation, to reuse derivations whose evidence, facts and settings are the same
   * objects and whose time has not come (the beat then costs only what changed).
   */
  previous?: Evaluation;
  /** Short display names by provider id, from the registry, for notification text (the id otherwise). */
  providerNames?: Readonly<Record<string, string>>;
  /** Why a provider's prompts cannot be answered from Lookout (its registry entry), by provider id. */
  answerHints?: Readonly<Record<string, string>>;
  /** Providers whose answering hook follows the hook that raises a prompt (their notifications wait a beat for it). */
  answering?: ReadonlySet<string>;
  /**
   * Read at this one instant only (a one-shot command): no session's change instant is worked
   * out, and no evaluation at another instant reuses these derivations.
   */
  once?: boolean;
}

export interface Evaluation {
  /** Every row, historical ones included, in triage order (R31). */
  snapshot: Snapshot;
  /** The derivations behind each row, by key (for `explain`). */
  derived: ReadonlyMap<string, DerivedSession>;
  /** R33: the first counted row, or null ("0 waiting"). */
  next: Row | null;
  /** R40–R42: at most one notification for this evaluation. */
  notification: NotificationPlan | null;
  /** The claims behind it, so rows from other machines can join the same notification (R42). */
  notifyDue: NotifyCandidate[];
  /** R22: rule applications to record in the ledger. */
  ruleApplications: RuleApplication[];
  /**
   * The earliest instant after which the rows could change with no new evidence or facts; the
   * rows stay as they are strictly before it. Null when nothing is timed.
   */
  nextChangeAt: number | null;
  /** The instant of an evaluation made `once`, the only one its derivations hold at; null otherwise. */
  onlyAt: number | null;
  /** What this evaluation read, so the next one can tell what changed. */
  inputs: { sessions: readonly SessionEvidence[]; facts: UserFacts; settings: Settings; onScreen: string | null };
}

/**
 * A session derived again whose row reads as before keeps the very same row object: most rows a
 * beat derives again (a time crossed that changes nothing shown) are then compared and encoded by
 * identity, not anew (issue 27: 2,000 rows, a 1.2 MB line per change).
 */
function keptRow(session: DerivedSession, before: DerivedSession | undefined): DerivedSession {
  if (before !== undefined && before.row !== session.row && plainEqual(before.row, session.row)) session.row = before.row;
  return session;
}

/** A derivation may be reused when nothing it read has changed and its time has not come. */
function reusable(previous: DerivedSession | undefined, evidence: SessionEvidence, input: EvaluationInput, before: Evaluation): previous is DerivedSession {
  if (previous === undefined || previous.input !== evidence || before.inputs.facts !== input.facts || before.inputs.settings !== input.settings) return false;
  if ((before.inputs.onScreen === previous.key) !== (input.onScreen === previous.key)) return false;
  // A rule applied "now" is dated now: such a derivation is never carried to another instant.
  if (previous.applied.length > 0) return false;
  return previous.changeAt === null || input.now < previous.changeAt;
}

/** The same evidence objects in the same places, and the same facts, settings and popover: only time moved. */
function onlyTimeMoved(previous: Evaluation, input: EvaluationInput): boolean {
  const before = previous.inputs;
  if (before.facts !== input.facts || before.settings !== input.settings || before.onScreen !== input.onScreen || before.sessions.length !== input.sessions.length) return false;
  for (let index = 0; index < input.sessions.length; index += 1) if (before.sessions[index] !== input.sessions[index]) return false;
  return true;
}

/** Each evaluation's timeline, made when a later beat first needs it. */
const timelines = new WeakMap<Evaluation, Timeline>();
function timelineFor(evaluation: Evaluation): Timeline {
  let timeline = timelines.get(evaluation);
  if (timeline === undefined) {
    timeline = timelineOf(evaluation.derived.values());
    timelines.set(evaluation, timeline);
  }
  return timeline;
}

/**
 * The derivations when only time moved since `previous`: those whose time came are derived again,
 * found through the timeline; every other is carried. Exactly what `reusable` decides one by one.
 */
function advanced(previous: Evaluation, input: EvaluationInput, timed: boolean): { derived: Map<string, DerivedSession>; fresh: DerivedSession[]; timeline: Timeline } {
  const timeline = timelineFor(previous);
  const due = dueCount(timeline, input.now);
  const derived = new Map(previous.derived);
  const fresh: DerivedSession[] = [];
  for (const stale of [...timeline.timed.slice(0, due), ...timeline.always]) {
    const session = keptRow(deriveSession(stale.input, input.facts, input.settings, input.now, input.onScreen, input.answerHints?.[stale.input.provider] ?? null, timed), stale);
    derived.set(session.key, session);
    fresh.push(session);
  }
  return { derived, fresh, timeline: advanceTimeline(timeline, due, fresh) };
}

export function evaluate(input: EvaluationInput): Evaluation {
  const { facts, settings, now, onScreen } = input;
  // A derivation whose change instant was never worked out holds at its own instant alone.
  const previous = input.previous?.onlyAt === null || input.previous?.onlyAt === now ? input.previous : undefined;
  const timed = input.once !== true;
  const quick = previous !== undefined && onlyTimeMoved(previous, input) ? advanced(previous, input, timed) : null;
  const derived = quick?.derived ?? new Map<string, DerivedSession>();
  if (quick === null) {
    for (const evidence of input.sessions) {
      const key = sessionKey(evidence.provider, evidence.sessionId);
      const before = previous?.derived.get(key);
      const session = previous !== undefined && reusable(before, evidence, input, previous) ? before : keptRow(deriveSession(evidence, facts, settings, now, onScreen, input.answerHints?.[evidence.provider] ?? null, timed), before);
      derived.set(session.key, session);
    }
  }
  const ordered = previousOrder(previous, derived, quick?.fresh) ?? triageOrder(derived);
  const rows = ordered.map((session) => session.row);
  const countable = ordered.map((session) => ({ band: session.band, muted: session.muted !== null, historical: session.historical, workflow: session.workflow }));
  const nextIndex = countable.findIndex(isCounted);

  const candidates: NotifyCandidate[] = [];
  // Only a claim on a row neither muted nor historical can be told (claimsToNotify's first test).
  for (const session of ordered) if (session.claim !== null && session.muted === null && !session.historical) candidates.push(candidateOf(session, input));
  const due = claimsToNotify(
    candidates,
    notifiedSet(facts),
    settings.notifications,
    onScreen,
    now,
    settings.timings,
  );
  const ruleApplications: RuleApplication[] = [];
  for (const session of ordered) if (session.applied.length > 0) ruleApplications.push(...session.applied);

  const evaluation: Evaluation = {
    snapshot: { schemaVersion: SCHEMA_VERSION, now: iso(now), attention: attentionOf(countable), sessions: rows },
    derived,
    next: nextIndex === -1 ? null : (rows[nextIndex] ?? null),
    notification: planNotification(due),
    notifyDue: due,
    ruleApplications,
    nextChangeAt: timed ? earliest(ordered.map((session) => session.changeAt)) : null,
    onlyAt: timed ? null : now,
    inputs: { sessions: input.sessions, facts, settings, onScreen },
  };
  if (quick !== null) timelines.set(evaluation, quick.timeline);
  return evaluation;
}

function rankableOf(session: DerivedSession): Rankable {
  return { key: session.key, rank: session.rank, waitingSince: waitingSince(session), lastActivityAt: session.lastActivityAt, muted: session.muted !== null };
}

/** Whether a row's claim is ambiguous, read from the derivations being ordered. */
function ambiguityIn(derived: ReadonlyMap<string, DerivedSession>): (row: Rankable) => boolean {
  return (row) => derived.get(row.key)?.claim?.ambiguous === true;
}

function triageOrder(derived: ReadonlyMap<string, DerivedSession>): DerivedSession[] {
  const ambiguous = ambiguityIn(derived);
  const rankables = [...derived.values()].map((session) => ({ session, rankable: rankableOf(session) }));
  return rankables.sort((a, b) => compareTriage(a.rankable, b.rankable, ambiguous)).map((item) => item.session);
}

/** Whether two derivations of a session sort alike (every input of compareTriage). */
function sortsAlike(a: DerivedSession, b: DerivedSession): boolean {
  return a.rank === b.rank && Object.is(waitingSince(a), waitingSince(b)) && Object.is(a.lastActivityAt, b.lastActivityAt) && (a.muted !== null) === (b.muted !== null) && (a.claim?.ambiguous === true) === (b.claim?.ambiguous === true);
}

/** More sessions sorting differently than this, and a fresh sort is as cheap as mending. */
const MEND_LIMIT = 64;

/**
 * The previous evaluation's order mended, when the same sessions are there and few sort
 * differently: those few are taken out and put back where they now belong. The order is total
 * (compareTriage ends on the key), so this is what a fresh sort gives (issue 27: a beat where a
 * few of 2,000 rows cross a time sorts no more than those few).
 */
function previousOrder(previous: Evaluation | undefined, derived: ReadonlyMap<string, DerivedSession>, fresh?: readonly DerivedSession[]): DerivedSession[] | null {
  if (previous === undefined || previous.derived.size !== derived.size) return null;
  const moved = new Set<string>();
  // Only time moved: the same sessions are there, and only the fresh derivations can sort differently.
  for (const session of fresh ?? derived.values()) {
    const before = previous.derived.get(session.key);
    if (before === undefined) return null;
    if (before !== session && !sortsAlike(before, session) && moved.add(session.key).size > MEND_LIMIT) return null;
  }
  const ordered: DerivedSession[] = [];
  for (const row of previous.snapshot.sessions) {
    if (moved.has(row.key)) continue;
    const session = derived.get(row.key);
    if (session === undefined) return null;
    ordered.push(session);
  }
  const ambiguous = ambiguityIn(derived);
  const compare = (a: DerivedSession, b: DerivedSession): number => compareTriage(rankableOf(a), rankableOf(b), ambiguous);
  for (const key of moved) {
    const session = derived.get(key);
    if (session !== undefined) ordered.splice(lowerBound(ordered, (item) => compare(item, session) < 0), 0, session);
  }
  return ordered;
}

/** A session's notification candidate, kept with its derivation while what else it reads is the same (issue 27: a beat re-derives few of 2,000). */
interface KeptCandidate {
  readonly names: EvaluationInput['providerNames'];
  readonly rules: EvaluationInput['settings']['rules'];
  readonly answering: EvaluationInput['answering'];
  readonly candidate: NotifyCandidate;
}
const keptCandidates = new WeakMap<DerivedSession, KeptCandidate>();

function candidateOf(session: DerivedSession, input: EvaluationInput): NotifyCandidate {
  const kept = keptCandidates.get(session);
  if (kept !== undefined && kept.names === input.providerNames && kept.rules === input.settings.rules && kept.answering === input.answering) return kept.candidate;
  const candidate: NotifyCandidate = {
    key: session.key,
    providerName: input.providerNames?.[session.evidence.provider] ?? session.evidence.provider,
    cwd: session.evidence.cwd,
    branch: session.evidence.branch,
    claim: session.claim,
    muted: session.muted !== null,
    historical: session.historical,
    treeKnown: treeKnown(session),
    level: notifyLevel(input.settings.rules, { cwd: session.evidence.cwd, provider: session.evidence.provider, host: null }),
    answer: openApproval(session.answer),
    // Hooks installed (the session has hook evidence): the answering request should follow.
    answerExpected: input.answering?.has(session.evidence.provider) === true && session.evidence.direct.some((item) => item.kind === 'hook'),
  };
  keptCandidates.set(session, { names: input.providerNames, rules: input.settings.rules, answering: input.answering, candidate });
  return candidate;
}

/** The notified ledger as a set, once per facts object. */
const notifiedSets = new WeakMap<UserFacts, ReadonlySet<string>>();
function notifiedSet(facts: UserFacts): ReadonlySet<string> {
  let set = notifiedSets.get(facts);
  if (set === undefined) {
    set = new Set(facts.notified);
    notifiedSets.set(facts, set);
  }
  return set;
}

/** The approval a notification may offer to answer: open, an approval (a question is the popover's). */
function openApproval(view: AnswerView | null): NotifyCandidate['answer'] {
  return view?.state === 'open' && view.request.prompt === 'approval' ? { request: view.request.id, digest: view.request.digest, tool: view.request.tool, text: view.request.text } : null;
}

/** A finish that depends on the working tree is told only once git was asked after it began. */
function treeKnown(session: DerivedSession): boolean {
  if (!session.wantsWorkingTree || session.evidence.cwd === null || session.claim === null) return true;
  const readAt = treeReadAt(session.evidence.workingTree);
  return readAt !== null && readAt >= session.claim.since;
}

/** Needs-you, failed, ready and finished wait since their claim; flagged and needs-review since the review was set (R31). */
function waitingSince(session: DerivedSession): number | null {
  if (session.band === 'flagged' || session.band === 'needs-review') return session.review.at;
  return session.claim?.since ?? null;
}
