// The evidence trail of one row: each observation with source, reason, confidence and the rule.
// Modal: focus moves in, Tab stays in, Escape (handled by the app) closes and returns focus.
import { useEffect, useRef } from 'preact/hooks';
import type { Explanation } from '../../engine/contract';

export function ExplainPanel({ explanation, onClose }: { explanation: Explanation; onClose: () => void }) {
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => close.current?.focus(), [explanation.key]);
  return (
    <div
      class="explain"
      role="dialog"
      aria-label="Explain"
      aria-modal="true"
      onKeyDown={(event) => {
        // The only control inside is the close button: Tab keeps focus on it.
        if (event.key === 'Tab') {
          event.preventDefault();
          close.current?.focus();
        }
      }}
    >
      <div class="explain-head">
        <h2>Why this status</h2>
        <button type="button" ref={close} onClick={onClose} aria-label="Close explanation">
          ×
        </button>
      </div>
      <p class="decided">Decided by: {explanation.decidedBy}</p>
      <ol class="observations">
        {explanation.observations.map((item, index) => (
          <li key={index}>
            <span class="when">{item.at === null ? 'unknown time' : new Date(item.at).toLocaleTimeString()}</span> <span class="source">{item.source}</span>{' '}
            <span class="state">
              {item.state} / {item.reason}
            </span>{' '}
            <span class="confidence">{item.confidence}</span>
            <div class="rule">{item.rule}</div>
          </li>
        ))}
        {explanation.observations.length === 0 && <li>No status-bearing record was found.</li>}
      </ol>
      {explanation.children.length > 0 && (
        <ul class="explain-children">
          {explanation.children.map((child) => (
            <li key={child.name}>
              {child.name}: {child.state}
              {child.detail === null ? '' : ` — ${child.detail}`}
            </li>
          ))}
        </ul>
      )}
      <p class="meta">
        Process: {explanation.liveness} · skipped lines: {explanation.skippedLines}
      </p>
    </div>
  );
}
