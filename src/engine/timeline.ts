// The derivations of an evaluation by the instant each stops holding (its changeAt), so a beat
// with the same evidence finds the few sessions whose time came without looking at all 2,000
// (issue 27). A derivation with a rule applied is dated now and never carried: it is always due.
import { lowerBound } from './lower-bound';
import type { DerivedSession } from './session';

export interface Timeline {
  /** Carried derivations with a changeAt, earliest first. */
  readonly timed: readonly DerivedSession[];
  /** Derivations re-derived at every evaluation (a rule applied). */
  readonly always: readonly DerivedSession[];
}

export function timelineOf(derived: Iterable<DerivedSession>): Timeline {
  const timed: DerivedSession[] = [];
  const always: DerivedSession[] = [];
  for (const session of derived) {
    if (session.applied.length > 0) always.push(session);
    else if (session.changeAt !== null) timed.push(session);
  }
  timed.sort((a, b) => (a.changeAt ?? 0) - (b.changeAt ?? 0));
  return { timed, always };
}

/** How many of the earliest timed derivations no longer hold at `now` (reuse needs now < changeAt). */
export function dueCount(timeline: Timeline, now: number): number {
  let count = 0;
  while (count < timeline.timed.length && now >= (timeline.timed[count]?.changeAt ?? Number.POSITIVE_INFINITY)) count += 1;
  return count;
}

/** The timeline after the first `due` timed derivations and every always-due one were replaced by `fresh`. */
export function advanceTimeline(timeline: Timeline, due: number, fresh: readonly DerivedSession[]): Timeline {
  const timed = timeline.timed.slice(due);
  const always: DerivedSession[] = [];
  for (const session of fresh) {
    if (session.applied.length > 0) always.push(session);
    else if (session.changeAt !== null) {
      const at = session.changeAt;
      timed.splice(
        lowerBound(timed, (item) => (item.changeAt ?? 0) <= at),
        0,
        session,
      );
    }
  }
  return { timed, always };
}
