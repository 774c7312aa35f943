// A Gemini CLI turn whose newest record is the model's text cannot say whether that text is the
// answer or the words before a call that waits for approval: the CLI writes both alike, once the
// stream ends (same fields, same tokens, the same `$set.lastUpdated` after), and nothing more
// until the call is done (measured on 0.61.0, docs/status-model.md "Gemini CLI's text"). While a
// Gemini CLI may still run there, such a session is handed on with no signal: `unknown`, no
// claim. Lookout's hooks say which (a permission Notification, or AfterAgent's turn over).
import type { SessionEvidence } from '../../engine';

/** The model's text last, the writer not known gone: the file cannot tell answer from preamble. */
function unsure(session: SessionEvidence): boolean {
  return session.signal?.kind === 'assistant-text' && session.liveness.kind !== 'dead';
}

/** Drops the unsure text's signal; the very same array comes back while the input is the same. */
export class UnsureText {
  private last: { input: SessionEvidence[]; output: SessionEvidence[] } | null = null;

  apply(evidence: SessionEvidence[]): SessionEvidence[] {
    if (this.last !== null && this.last.input === evidence) return this.last.output;
    const output = evidence.some(unsure) ? evidence.map((session) => (unsure(session) ? { ...session, signal: null } : session)) : evidence;
    this.last = { input: evidence, output };
    return output;
  }
}
