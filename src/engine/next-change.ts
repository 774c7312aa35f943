// When could the rows change with no new evidence? Every time rule of the model is an evidence
// time plus a timing; the earliest such instant after `now` bounds how long the rows stay as they
// are, so the runtime's beat can skip evaluations until then (a property test checks the bound).
import type { UserFacts, Settings } from './facts';
import type { DerivedSession } from './session';
import { ASSISTANT_TEXT_SETTLE_MS, NOTIFY_LOOKBACK_MS } from './timings';
import { parseDuration } from './duration';

/** Offsets depend only on the settings object: computed once per settings (pure memo). */
const offsetCache = new WeakMap<Settings, number[]>();

function offsets(settings: Settings): number[] {
  const cached = offsetCache.get(settings);
  if (cached !== undefined) return cached;
  const computed = computeOffsets(settings);
  offsetCache.set(settings, computed);
  return computed;
}

function computeOffsets(settings: Settings): number[] {
  const t = settings.timings;
  const rules = settings.rules.map((rule) => parseDuration(rule.when.inactiveFor)).filter((ms): ms is number => ms !== null);
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
    NOTIFY_LOOKBACK_MS,
    ...rules,
  ];
}

/** The evidence and fact times a session's derivation compares against `now`. */
function anchors(session: DerivedSession, facts: UserFacts): number[] {
  const { evidence, key } = session;
  const times: (number | null | undefined)[] = [
    evidence.signal?.at,
    evidence.lastRecordAt,
    evidence.turn?.endedAt,
    session.lastActivityAt,
    session.observed.at,
    session.claim?.since,
    session.claim?.expiresAt,
    facts.mutes[key]?.until,
    facts.attentionCalls[key]?.at,
  ];
  for (const item of evidence.direct) times.push(item.at);
  for (const notice of evidence.notices) times.push(notice.at);
  for (const child of evidence.children) times.push(child.lastAt, child.signal?.at, child.request?.at);
  return times.filter((time): time is number => typeof time === 'number' && Number.isFinite(time));
}

/** The bound for one session: its derivation stays as it is strictly before this instant. */
export function sessionChangeAt(session: DerivedSession, facts: UserFacts, settings: Settings, now: number): number | null {
  let next: number | null = null;
  const spans = offsets(settings);
  const times = anchors(session, facts);
  // Indexed loops: one-shot commands run without the optimising compiler, and there every step of
  // a for-of allocates (this loop runs anchors × spans times for each of thousands of sessions).
  for (let i = 0; i < times.length; i += 1) {
    const anchor = times[i] ?? 0;
    for (let j = 0; j < spans.length; j += 1) {
      // A rule compares with `>=` (flips at the threshold) or `>` (flips just after it).
      const at = anchor + (spans[j] ?? 0);
      const first = at > now ? at : at + 1 > now ? at + 1 : null;
      if (first !== null && (next === null || first < next)) next = first;
    }
  }
  return next;
}

export function earliest(times: Iterable<number | null>): number | null {
  let next: number | null = null;
  for (const time of times) if (time !== null && (next === null || time < next)) next = time;
  return next;
}
