// The evidence trail of one row as the contract's Explanation (the popover's Explain panel).
import type { DerivedSession } from '../../engine';
import type { Explanation } from '../../engine/contract';
import { iso } from '../../engine';

const when = (ms: number): string | null => (Number.isFinite(ms) ? iso(ms) : null);

export function explainSession(session: DerivedSession): Explanation {
  const liveness = session.evidence.liveness;
  return {
    key: session.key,
    decidedBy: session.observed.rule,
    observations: session.considered.map((item) => ({
      at: when(item.at),
      source: item.source,
      state: item.state,
      reason: item.reason,
      confidence: item.confidence,
      rule: item.rule,
    })),
    children: session.children.map((child) => ({ name: child.name, state: child.state, detail: child.request?.detail ?? null, at: when(child.at) })),
    liveness: liveness.kind === 'alive' ? `alive (pid ${liveness.pid})` : liveness.kind,
    skippedLines: session.evidence.skippedLines,
  };
}
