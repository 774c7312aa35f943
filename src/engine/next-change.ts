// When could the rows change with no new evidence? Every time rule of the model is an evidence
// time plus a timing; the earliest such instant after `now` bounds how long the rows stay as they
// are, so the runtime's beat can skip evaluations until then (a property test checks the bound).
import type { UserFacts, Settings } from './facts';
import type { RowSource } from './row-of';
import { ASSISTANT_TEXT_SETTLE_MS, NOTIFY_LOOKBACK_MS } from './timings';
import { parseDuration } from './duration';
import { lowerBound } from './lower-bound';

/** Offsets depend only on the settings object: computed once per settings (pure memo). */
const offsetCache = new WeakMap<Settings, number[]>();

function offsets(settings: Settings): number[] {
  const cached = offsetCache.get(settings);
  if (cached !== undefined) return cached;
  const computed = computeOffsets(settings);
  offsetCache.set(settings, computed);
  return computed;
}

/** Ascending, so each anchor needs only the first offset that reaches past `now`. */
function computeOffsets(settings: Settings): number[] {
  const t = settings.timings;
  const rules = settings.rules
    .map((rule) => (rule.when.inactiveFor === undefined ? null : parseDuration(rule.when.inactiveFor)))
    .filter((ms): ms is number => ms !== null);
  return [
    0,
    ASSISTANT_TEXT_SETTLE_MS,
    t.toolPendingGrace,
    t.staleAfter,
    t.historicalAfter,
    t.claimExpiry,
    t.hookWorkingHold,
    t.finishedTick,
    t.idleStaleAfter,
    t.ambiguousNotifyAfter,
    t.toolPendingGrace + t.ambiguousNotifyAfter,
    t.escalateAfter,
    t.answeredHold,
    // A needs-you notification waits a beat for its answering request (notify.ts).
    t.beat,
    NOTIFY_LOOKBACK_MS,
    ...rules,
  ].sort((x, y) => x - y);
}

/** The evidence and fact times a session's derivation compares against `now`. */
function anchors(session: RowSource, facts: UserFacts): number[] {
  const { evidence, key } = session;
  const times: (number | null | undefined)[] = [
    evidence.signal?.at,
    evidence.lastRecordAt,
    evidence.turn?.endedAt,
    session.lastActivityAt,
    session.observed.at,
    session.claim?.since,
    session.claim?.expiresAt,
    // A limit's reset: the claim turns, and the row stays out of history a while after it (R81).
    session.observed.resetsAt,
    facts.mutes[key]?.until,
    facts.attentionCalls[key]?.at,
  ];
  for (const item of evidence.direct) times.push(item.at);
  // An open request lapses at its deadline; a closed one's `answered` reading after answeredHold.
  for (const request of evidence.requests ?? []) times.push(request.at, request.deadline, request.closed?.at);
  for (const notice of evidence.notices) times.push(notice.at);
  for (const child of evidence.children) times.push(child.lastAt, child.signal?.at, child.request?.at);
  // A clock ahead of ours: the times held at first sight are let go when now reaches them.
  if (session.input !== evidence) times.push(session.input.lastRecordAt, session.input.signal?.at, session.input.turn?.endedAt);
  return times.filter((time): time is number => typeof time === 'number' && Number.isFinite(time));
}

/** The bound for one session: its derivation stays as it is strictly before this instant. */
export function sessionChangeAt(session: RowSource, facts: UserFacts, settings: Settings, now: number): number | null {
  return earliestCrossing(anchors(session, facts), offsets(settings), now);
}

/**
 * The first instant after `now` at which some anchor + offset is crossed. A rule compares with
 * `>=` (flips at the threshold) or `>` (flips just after it), so an offset's instant is
 * anchor + span, or one after it when that is not yet past `now`. `spans` is ascending.
 */
export function earliestCrossing(times: readonly number[], spans: readonly number[], now: number): number | null {
  let next: number | null = null;
  // Indexed loops: a for-of allocates at every step without the optimising compiler.
  for (let i = 0; i < times.length; i += 1) {
    const anchor = times[i] ?? 0;
    // The first offset whose instant (or the one after it) is past `now`; the test is monotonic.
    const low = lowerBound(spans, (span) => anchor + span + 1 <= now);
    if (low === spans.length) continue;
    const at = anchor + (spans[low] ?? 0);
    let first = at > now ? at : at + 1;
    // Offsets less than a millisecond apart could still reach past `now` sooner than `at + 1`.
    for (let k = low + 1; k < spans.length && anchor + (spans[k] ?? 0) < first; k += 1) {
      const later = anchor + (spans[k] ?? 0);
      if (later > now) first = later;
    }
    if (next === null || first < next) next = first;
  }
  return next;
}
