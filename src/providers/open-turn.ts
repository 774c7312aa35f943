// Whether a session's last record leaves a turn open: only then can a writer that went away mean
// the agent died mid-turn (a thread's writer lock nobody holds, a database nobody writes).
import type { SessionEvidence, TranscriptSignal } from '../engine';

/** Whether a transcript's last record leaves its turn open: the answer is not written yet. */
export function leavesTurnOpen(signal: TranscriptSignal | null): boolean {
  if (signal === null) return false;
  switch (signal.kind) {
    case 'prompt':
    case 'tool-result':
    case 'progress':
    case 'tool-call':
      return true;
    case 'assistant-text':
      return signal.stop !== 'end';
    case 'turn-end':
    case 'interrupted':
    case 'api-error':
    case 'usage-limit':
      return false;
  }
}

function turnLeftOpen(evidence: SessionEvidence): boolean {
  return leavesTurnOpen(evidence.signal);
}

/**
 * Marks ended the sessions whose turn is left open and whose writer is gone, asked at every sync
 * (a process dies without touching a file). The very same array comes back while neither the
 * evidence nor the answer changed, so the runtime skips the work downstream.
 */
export class WriterCheck {
  private last: { base: SessionEvidence[]; signature: string; evidence: SessionEvidence[] } | null = null;

  constructor(private readonly source: string) {}

  /** `gone(session)` is asked only of sessions with a turn left open. */
  apply(base: SessionEvidence[], gone: (session: SessionEvidence) => boolean): SessionEvidence[] {
    const ended = new Set(base.filter((session) => turnLeftOpen(session) && gone(session)).map((session) => session.sessionId));
    const signature = [...ended].sort().join(',');
    if (this.last !== null && this.last.base === base && this.last.signature === signature) return this.last.evidence;
    const evidence = ended.size === 0 ? base : base.map((session) => (ended.has(session.sessionId) ? this.ended(session) : session));
    this.last = { base, signature, evidence };
    return evidence;
  }

  /** As of its last record: the writer was last seen then. */
  private ended(session: SessionEvidence): SessionEvidence {
    return { ...session, liveness: { kind: 'dead', source: this.source, pid: null, at: session.lastRecordAt ?? 0, why: 'no-writer' } };
  }
}
