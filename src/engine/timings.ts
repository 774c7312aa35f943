// Every timing of docs/status-model.md §6, in milliseconds, defined once. The settings file may
// override the ones that are settings; the constants below it are fixed facts of the model.

export interface Timings {
  beat: number;
  toolPendingGrace: number;
  staleAfter: number;
  historicalAfter: number;
  claimExpiry: number;
  hookWorkingHold: number;
  finishedTick: number;
  longJobFloor: number;
  idleStaleAfter: number;
  gitRefresh: number;
  ambiguousNotifyAfter: number;
  notifyCoalesce: number;
  /** R61: a muted session's needs-you claim comes back after this long; 0 never. */
  escalateAfter: number;
  /** R72: a key press cannot answer a prompt that appeared or changed this recently. */
  answerGrace: number;
  /** R73: after an answer from Lookout, how long the row reads `answered` awaiting the agent's confirmation. */
  answeredHold: number;
  /** R93: a phone's action token is void this long after it was sent. */
  phoneAnswerTtl: number;
  /** R91: "only when away" sends once this machine's user has been idle this long (or the screen is locked). */
  awayAfter: number;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

export const DEFAULT_TIMINGS: Readonly<Timings> = Object.freeze({
  beat: 2 * SECOND,
  toolPendingGrace: 7 * SECOND,
  staleAfter: 30 * MINUTE,
  historicalAfter: 24 * HOUR,
  claimExpiry: 120 * SECOND,
  hookWorkingHold: 90 * SECOND,
  finishedTick: 90 * SECOND,
  longJobFloor: 8 * SECOND,
  idleStaleAfter: 15 * MINUTE,
  gitRefresh: 30 * SECOND,
  ambiguousNotifyAfter: 30 * SECOND,
  notifyCoalesce: 2 * SECOND,
  escalateAfter: 30 * MINUTE,
  answerGrace: 3 * 2 * SECOND,
  answeredHold: 5 * 2 * SECOND,
  phoneAnswerTtl: 10 * MINUTE,
  awayAfter: 5 * MINUTE,
});

/** An assistant text with no stop reason reads as the turn's end once it is this old (§11). */
export const ASSISTANT_TEXT_SETTLE_MS = 3 * SECOND;

/**
 * Finish and failure claims older than this when first seen are not notified: a first launch
 * must not replay a week of finished turns. Needs-you claims always notify once (docs/status-model.md).
 */
export const NOTIFY_LOOKBACK_MS = 10 * MINUTE;
