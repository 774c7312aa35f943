// The engine's one entry: evidence + user facts + settings + now → rows, attention, decisions.
// Pure: no clock, no I/O. The runtime carries out the decisions it returns.
import type { SessionEvidence } from './evidence';
import type { RuleApplication, Settings, UserFacts } from './facts';
import type { NotificationPlan, NotifyCandidate } from './notify';
import { candidateOf, notifiedSet } from './notify-candidate';
import { claimsToNotify, planNotification } from './notify';
import type { Row, Snapshot, UsageLimits } from './row';
import { SCHEMA_VERSION, iso, isoOrNull } from './row';
import type { DerivedSession } from './session';
import { deriveSession } from './session';
import type { Timeline } from './timeline';
import { advanceTimeline, dueCount, timelineOf } from './timeline';
import { lowerBound } from './lower-bound';
import { plainEqual } from './plain-equal';
import { sessionKey } from './evidence';
import type { AttentionSummary, Countable, Rankable } from './triage';
import { attentionOf, compareTriage, isCounted } from './triage';
import { LayeredMap } from './layered-map';

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
  /** The keys of the derivations whose finish waits on their working tree (wantsWorkingTree), in triage order: what the runtime reads git for. */
  wantingTrees: readonly string[];
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
  if (
    before.facts !== input.facts ||
    before.settings !== input.settings ||
    before.onScreen !== input.onScreen ||
    before.sessions.length !== input.sessions.length
  )
    return false;
  if (before.sessions === input.sessions) return true;
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
function advanced(
  previous: Evaluation,
  input: EvaluationInput,
  timed: boolean,
): { derived: ReadonlyMap<string, DerivedSession>; fresh: DerivedSession[]; timeline: Timeline } {
  const timeline = timelineFor(previous);
  const due = dueCount(timeline, input.now);
  const fresh: DerivedSession[] = [];
  for (const stale of [...timeline.timed.slice(0, due), ...timeline.always]) {
    fresh.push(
      keptRow(
        deriveSession(stale.input, input.facts, input.settings, input.now, input.onScreen, input.answerHints?.[stale.input.provider] ?? null, timed),
        stale,
      ),
    );
  }
  // The carried derivations are not copied: a beat costs what was derived again (issue 27).
  const derived =
    fresh.length === 0
      ? previous.derived
      : LayeredMap.replacing(
          previous.derived,
          fresh.map((session) => [session.key, session] as const),
        );
  return { derived, fresh, timeline: advanceTimeline(timeline, due, fresh) };
}

/** The derivations of every session, each reused when nothing it read changed and its time has not come. */
function derivedAfresh(input: EvaluationInput, previous: Evaluation | undefined, timed: boolean): Map<string, DerivedSession> {
  const derived = new Map<string, DerivedSession>();
  for (const evidence of input.sessions) {
    const key = sessionKey(evidence.provider, evidence.sessionId);
    const before = previous?.derived.get(key);
    const session =
      previous !== undefined && reusable(before, evidence, input, previous)
        ? before
        : keptRow(
            deriveSession(evidence, input.facts, input.settings, input.now, input.onScreen, input.answerHints?.[evidence.provider] ?? null, timed),
            before,
          );
    derived.set(session.key, session);
  }
  return derived;
}

export function evaluate(input: EvaluationInput): Evaluation {
  const { facts, settings, now, onScreen } = input;
  // A derivation whose change instant was never worked out holds at its own instant alone.
  const previous = input.previous?.onlyAt === null || input.previous?.onlyAt === now ? input.previous : undefined;
  const timed = input.once !== true;
  const quick = previous !== undefined && onlyTimeMoved(previous, input) ? advanced(previous, input, timed) : null;
  const derived = quick?.derived ?? derivedAfresh(input, previous, timed);
  const order = previousOrder(previous, derived, quick?.fresh) ?? orderOf(triageOrder(derived), null);
  const ordered = order.sessions;
  const rows = order.rows;

  const candidates: NotifyCandidate[] = [];
  // Only a claim on a row neither muted nor historical can be told (claimsToNotify's first test).
  for (const session of ordered) if (session.claim !== null && session.muted === null && !session.historical) candidates.push(candidateOf(session, input));
  const due = claimsToNotify(candidates, notifiedSet(facts), settings.notifications, onScreen, now, settings.timings);
  const ruleApplications: RuleApplication[] = [];
  for (const session of ordered) if (session.applied.length > 0) ruleApplications.push(...session.applied);

  const evaluation: Evaluation = {
    snapshot: { schemaVersion: SCHEMA_VERSION, now: iso(now), attention: order.attention, sessions: rows, limits: currentLimits(order.usage, now) },
    derived,
    next: order.next === -1 ? null : (rows[order.next] ?? null),
    notification: planNotification(due),
    notifyDue: due,
    ruleApplications,
    nextChangeAt: timed ? earliestChange(ordered) : null,
    onlyAt: timed ? null : now,
    wantingTrees: order.wantingTrees,
    inputs: { sessions: input.sessions, facts, settings, onScreen },
  };
  orders.set(evaluation, order);
  if (quick !== null) timelines.set(evaluation, quick.timeline);
  return evaluation;
}

/** The earliest change instant of any derivation (a loop: a beat allocates nothing per row). */
function earliestChange(ordered: readonly DerivedSession[]): number | null {
  let next: number | null = null;
  for (const session of ordered) if (session.changeAt !== null && (next === null || session.changeAt < next)) next = session.changeAt;
  return next;
}

/** An evaluation's derivations in triage order, with what is read from that order, kept for the next beat. */
interface Order {
  readonly sessions: readonly DerivedSession[];
  /** The snapshot's rows: shared by evaluations whose rows are all the same, so never changed once made. */
  readonly rows: Row[];
  readonly attention: AttentionSummary;
  /** The index of the first counted row (R33), or -1. */
  readonly next: number;
  readonly wantingTrees: readonly string[];
  /** R83: per provider, the session whose usage windows are the newest (read once per order). */
  readonly usage: readonly DerivedSession[];
  /** Where each key sits, worked out when a beat first needs it; the same for every order alike. */
  positions: ReadonlyMap<string, number> | null;
}
const orders = new WeakMap<Evaluation, Order>();

/** The order's rows, attention and first counted row, worked out whole. */
function orderOf(sessions: readonly DerivedSession[], positions: ReadonlyMap<string, number> | null): Order {
  const countable = sessions.map(countableOf);
  return {
    sessions,
    rows: sessions.map((session) => session.row),
    attention: attentionOf(countable),
    next: countable.findIndex(isCounted),
    wantingTrees: sessions.filter((session) => session.wantsWorkingTree).map((session) => session.key),
    usage: newestUsage(sessions),
    positions,
  };
}

/** The newest instant a session's usage windows were written, or null without any. */
function usageAt(session: DerivedSession): number | null {
  let at: number | null = null;
  for (const window of session.evidence.usageWindows ?? []) if (at === null || window.at > at) at = window.at;
  return at;
}

/** R83: per provider, the session that wrote the newest usage windows. */
function newestUsage(sessions: readonly DerivedSession[]): DerivedSession[] {
  const best = new Map<string, { session: DerivedSession; at: number }>();
  for (const session of sessions) {
    const at = usageAt(session);
    if (at === null) continue;
    const held = best.get(session.evidence.provider);
    if (held === undefined || at > held.at) best.set(session.evidence.provider, { session, at });
  }
  return [...best.values()].map((item) => item.session);
}

/** R83: those windows as published; a window whose reset has passed says nothing about now. */
function currentLimits(usage: readonly DerivedSession[], now: number): UsageLimits[] {
  const limits: UsageLimits[] = [];
  for (const session of usage) {
    const windows = (session.evidence.usageWindows ?? [])
      .filter((window) => window.resetsAt === null || window.resetsAt > now)
      .map((window) => ({
        name: window.name,
        usedPercent: window.usedPercent,
        windowMinutes: window.windowMinutes,
        resetsAt: isoOrNull(window.resetsAt),
        at: iso(window.at),
      }));
    if (windows.length > 0) limits.push({ provider: session.evidence.provider, host: null, key: session.key, windows });
  }
  return limits;
}

function countableOf(session: DerivedSession): Countable {
  return { band: session.band, muted: session.muted !== null, historical: session.historical, workflow: session.workflow };
}

/** Whether two derivations of a session count alike (every input of attentionOf and isCounted) and want the working tree alike. */
function countsAlike(a: DerivedSession, b: DerivedSession): boolean {
  return (
    a.band === b.band &&
    (a.muted !== null) === (b.muted !== null) &&
    a.historical === b.historical &&
    a.workflow === b.workflow &&
    a.wantsWorkingTree === b.wantsWorkingTree
  );
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
  return (
    a.rank === b.rank &&
    Object.is(waitingSince(a), waitingSince(b)) &&
    Object.is(a.lastActivityAt, b.lastActivityAt) &&
    (a.muted !== null) === (b.muted !== null) &&
    (a.claim?.ambiguous === true) === (b.claim?.ambiguous === true)
  );
}

/** More sessions sorting differently than this, and a fresh sort is as cheap as mending. */
const MEND_LIMIT = 64;

/**
 * The previous evaluation's order mended, when the same sessions are there and few sort
 * differently: those few are taken out and put back where they now belong. The order is total
 * (compareTriage ends on the key), so this is what a fresh sort gives (issue 27: a beat where a
 * few of 2,000 rows cross a time sorts no more than those few).
 */
function previousOrder(previous: Evaluation | undefined, derived: ReadonlyMap<string, DerivedSession>, fresh?: readonly DerivedSession[]): Order | null {
  if (previous === undefined || previous.derived.size !== derived.size) return null;
  const moved = new Set<string>();
  const replaced: { before: DerivedSession; after: DerivedSession }[] = [];
  // Only time moved: the same sessions are there, and only the fresh derivations can sort differently.
  for (const session of fresh ?? derived.values()) {
    const before = previous.derived.get(session.key);
    if (before === undefined) return null;
    if (before === session) continue;
    replaced.push({ before, after: session });
    if (!sortsAlike(before, session) && moved.add(session.key).size > MEND_LIMIT) return null;
  }
  const kept = orders.get(previous);
  const same = fresh !== undefined && moved.size === 0 && kept !== undefined ? sameOrder(kept, replaced) : null;
  if (same !== null) return same;
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
    if (session !== undefined)
      ordered.splice(
        lowerBound(ordered, (item) => compare(item, session) < 0),
        0,
        session,
      );
  }
  return orderOf(ordered, moved.size === 0 ? (kept?.positions ?? null) : null);
}

/**
 * A beat's order when nothing moved: the previous one with the derived-again sessions put in
 * their places. What was read from it is carried when they read and count alike, so a beat
 * where nothing shown changed allocates nothing per row (issue 27).
 */
function sameOrder(kept: Order, replaced: readonly { before: DerivedSession; after: DerivedSession }[]): Order | null {
  if (replaced.length === 0) return kept;
  const positions = kept.positions ?? new Map(kept.sessions.map((session, index) => [session.key, index]));
  kept.positions = positions;
  const sessions = kept.sessions.slice();
  let rows: Row[] | null = null;
  let alike = true;
  for (const { before, after } of replaced) {
    const at = positions.get(after.key);
    if (at === undefined) return null;
    sessions[at] = after;
    if (!countsAlike(before, after)) alike = false;
    if (after.row === before.row) continue;
    rows ??= kept.rows.slice();
    rows[at] = after.row;
  }
  if (!alike) return orderOf(sessions, positions);
  return { sessions, rows: rows ?? kept.rows, attention: kept.attention, next: kept.next, wantingTrees: kept.wantingTrees, usage: kept.usage, positions };
}

/** Needs-you, failed, ready and finished wait since their claim; flagged and needs-review since the review was set (R31). */
function waitingSince(session: DerivedSession): number | null {
  if (session.band === 'flagged' || session.band === 'needs-review') return session.review.at;
  return session.claim?.since ?? null;
}
