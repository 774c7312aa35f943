// A derivation as cli.md's row: what `status --json` prints and the popover shows.
import type { AnswerView } from './answer';
import type { Row, RowAnswer } from './row';
import { iso, isoOrNull } from './row';
import type { DerivedSession } from './session';

/** What a row is made of: the derivation, before its row is attached. */
export type RowSource = Omit<DerivedSession, 'row'>;

const finiteIso = (ms: number): string | null => (Number.isFinite(ms) ? iso(ms) : null);

/** A derivation's row; made once with it, so a reused derivation gives the very same row object. */
export function toRow(session: RowSource): Row {
  const { evidence, observed, review, claim } = session;
  return {
    key: session.key,
    host: null,
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
    band: session.band,
    idleStale: session.idleStale,
    answer: rowAnswer(session.answer),
    resetsAt: observed.state === 'limited' ? isoOrNull(observed.resetsAt ?? null) : null,
  };
}

function rowAnswer(view: AnswerView | null): RowAnswer | null {
  if (view === null) return null;
  switch (view.state) {
    case 'open': {
      const { request } = view;
      return {
        state: 'open',
        request: request.id,
        digest: request.digest,
        prompt: request.prompt,
        tool: request.tool,
        text: request.text,
        hidden: request.hidden,
        questions: request.questions,
        since: iso(request.at),
        keysFrom: iso(view.keysFrom),
        serial: request.serial,
        deadline: iso(request.deadline),
      };
    }
    case 'answered':
      return { state: 'answered', request: view.request.id, answer: view.answer, from: view.from, at: iso(view.at) };
    case 'elsewhere':
      return { state: 'elsewhere', request: view.request.id, at: iso(view.at) };
    case 'unavailable':
      return { state: 'unavailable', why: view.why };
  }
}
