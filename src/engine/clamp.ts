// §11 "Both": a record's timestamp is its evidence time, clamped to now (a clock ahead of ours
// must not hold a claim open in the future) — to when it was first seen, where that is known, so
// the row holds still instead of moving with every beat (issue 24).
import type { ChildEvidence, DirectEvidence, SessionEvidence, TranscriptSignal } from './evidence';

const cap = (at: number, now: number): number => Math.min(at, now);

function clampSignal(signal: TranscriptSignal | null, now: number): TranscriptSignal | null {
  return signal === null ? null : { ...signal, at: cap(signal.at, now) };
}

function clampChild(child: ChildEvidence, now: number): ChildEvidence {
  return {
    ...child,
    startedAt: cap(child.startedAt, now),
    lastAt: cap(child.lastAt, now),
    signal: clampSignal(child.signal, now),
    request: child.request === null ? null : { ...child.request, at: cap(child.request.at, now) },
  };
}

/** Whether any time in the evidence lies after `now` (rare: a clock ahead of ours). */
export function anyAfter(evidence: SessionEvidence, now: number): boolean {
  if (
    (evidence.lastRecordAt ?? 0) > now ||
    (evidence.answeredAt ?? 0) > now ||
    (evidence.signal?.at ?? 0) > now ||
    (evidence.turn?.startedAt ?? 0) > now ||
    (evidence.turn?.endedAt ?? 0) > now
  )
    return true;
  // Loops, not closures: this runs twice for every session of every evaluation (20,000 at a time, issue 51).
  for (const item of evidence.direct) if (item.at > now) return true;
  for (const item of evidence.notices) if (item.at > now) return true;
  for (const child of evidence.children) {
    if (child.startedAt > now || child.lastAt > now || (child.signal?.at ?? 0) > now || (child.request?.at ?? 0) > now) return true;
  }
  return false;
}

export function clampEvidence(evidence: SessionEvidence, at: number): SessionEvidence {
  if (!anyAfter(evidence, at)) return evidence;
  // Held where it was first seen (never later than now).
  const now = Math.min(at, evidence.seenAt ?? at);
  const direct: DirectEvidence[] = evidence.direct.map((item) => ({ ...item, at: cap(item.at, now) }));
  const turn =
    evidence.turn === null
      ? null
      : { ...evidence.turn, startedAt: cap(evidence.turn.startedAt, now), endedAt: evidence.turn.endedAt === null ? null : cap(evidence.turn.endedAt, now) };
  return {
    ...evidence,
    lastRecordAt: evidence.lastRecordAt === null ? null : cap(evidence.lastRecordAt, now),
    answeredAt: evidence.answeredAt === undefined || evidence.answeredAt === null ? evidence.answeredAt : cap(evidence.answeredAt, now),
    signal: clampSignal(evidence.signal, now),
    turn,
    direct,
    children: evidence.children.map((child) => clampChild(child, now)),
    notices: evidence.notices.map((notice) => ({ ...notice, at: cap(notice.at, now) })),
  };
}
