// The engine's one entry: evidence + user facts + settings + now → rows, attention, decisions.
// Pure: no clock, no I/O. The runtime carries out the decisions it returns.
import type { SessionEvidence } from './evidence';
import type { RuleApplication, Settings, UserFacts } from './facts';
import type { NotificationPlan } from './notify';
import { claimsToNotify, planNotification } from './notify';
import type { Row, Snapshot } from './row';
import { SCHEMA_VERSION, iso, isoOrNull } from './row';
import type { DerivedSession } from './session';
import { deriveSession } from './session';
import { nextChangeAt } from './next-change';
import { attentionOf, compareTriage, isCounted } from './triage';

export interface EvaluationInput {
  sessions: readonly SessionEvidence[];
  facts: UserFacts;
  settings: Settings;
  now: number;
  /** The session selected in an open popover: never notified, never awarded ready-for-review. */
  onScreen: string | null;
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
  /** R22: rule applications to record in the ledger. */
  ruleApplications: RuleApplication[];
  /**
   * The earliest instant after which the rows could change with no new evidence or facts; the
   * rows stay as they are strictly before it. Null when nothing is timed.
   */
  nextChangeAt: number | null;
}

const finiteIso = (ms: number): string | null => (Number.isFinite(ms) ? iso(ms) : null);

export function toRow(session: DerivedSession): Row {
  const { evidence, observed, review, claim } = session;
  return {
    key: session.key,
    provider: evidence.provider,
    sessionId: evidence.sessionId,
    title: evidence.title,
    cwd: evidence.cwd,
    branch: evidence.branch,
    lastActivityAt: isoOrNull(session.lastActivityAt),
    observed: {
      state: observed.state,
      reason: observed.reason,
      detail: observed.detail,
      source: observed.source,
      confidence: observed.confidence,
      at: finiteIso(observed.at),
    },
    children: session.childSummary,
    review: { state: review.state, by: review.by, at: isoOrNull(review.at), newActivitySince: session.newActivitySince },
    workflow: session.workflow,
    claim:
      claim === null
        ? null
        : { kind: claim.kind, since: iso(claim.since), expiresAt: isoOrNull(claim.expiresAt), ambiguous: claim.ambiguous, detail: claim.detail },
    muted: session.muted === null ? null : { until: isoOrNull(session.muted.until) },
    historical: session.historical,
    triageRank: session.rank,
    idleStale: session.idleStale,
  };
}

export function evaluate(input: EvaluationInput): Evaluation {
  const { facts, settings, now, onScreen } = input;
  const derived = new Map<string, DerivedSession>();
  for (const evidence of input.sessions) {
    const session = deriveSession(evidence, facts, settings, now, onScreen);
    derived.set(session.key, session);
  }
  const rankables = [...derived.values()].map((session) => ({
    session,
    rankable: { key: session.key, rank: session.rank, waitingSince: waitingSince(session), lastActivityAt: session.lastActivityAt, muted: session.muted !== null },
  }));
  const ambiguous = (row: { key: string }): boolean => derived.get(row.key)?.claim?.ambiguous === true;
  const ordered = rankables.sort((a, b) => compareTriage(a.rankable, b.rankable, ambiguous)).map((item) => item.session);
  const rows = ordered.map(toRow);
  const countable = ordered.map((session) => ({ rank: session.rank, muted: session.muted !== null, historical: session.historical, workflow: session.workflow }));
  const nextIndex = countable.findIndex(isCounted);

  const due = claimsToNotify(
    ordered.map((session) => ({
      key: session.key,
      provider: session.evidence.provider,
      cwd: session.evidence.cwd,
      branch: session.evidence.branch,
      claim: session.claim,
      muted: session.muted !== null,
      historical: session.historical,
    })),
    new Set(facts.notified),
    settings.notifications,
    onScreen,
    now,
    settings.timings,
  );

  return {
    snapshot: { schemaVersion: SCHEMA_VERSION, now: iso(now), attention: attentionOf(countable), sessions: rows },
    derived,
    next: nextIndex === -1 ? null : (rows[nextIndex] ?? null),
    notification: planNotification(due),
    ruleApplications: ordered.flatMap((session) => session.applied),
    nextChangeAt: nextChangeAt(ordered, facts, settings, now),
  };
}

/** Ranks 1–3 and 6 wait since their claim; 4–5 since the review was set (R31). */
function waitingSince(session: DerivedSession): number | null {
  if (session.rank === 4 || session.rank === 5) return session.review.at;
  return session.claim?.since ?? null;
}
