// Whether a session's last record leaves a turn open: only then can a writer that went away mean
// the agent died mid-turn (a thread's writer lock nobody holds, a database nobody writes).
import type { SessionEvidence } from '../engine';

export function turnLeftOpen(evidence: SessionEvidence): boolean {
  const signal = evidence.signal;
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
      return false;
  }
}

/** A session whose writer is gone with a turn open: ended, as of its last record. */
export function writerGone(evidence: SessionEvidence, source: string): SessionEvidence {
  return { ...evidence, liveness: { kind: 'dead', source, pid: null, at: evidence.lastRecordAt ?? 0, why: 'no-writer' } };
}
