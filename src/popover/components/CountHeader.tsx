// The header: the engine's attention count, and chips that narrow the list to what wants attention.
import type { PopoverState } from '../../engine/contract';

interface Props {
  /** The engine's counts (R32): the popover never re-derives what a band means. */
  attention: PopoverState['snapshot']['attention'];
  attentionOnly: boolean;
  onToggleAttention: () => void;
}

export function CountHeader({ attention, attentionOnly, onToggleAttention }: Props) {
  return (
    <header class="head">
      <h1>Lookout</h1>
      <span class={`count level-${attention.level}`} role="status" data-attention-count={attention.count}>
        <span class="sr-only">{`${attention.count} want attention: `}</span>
        {attention.needYou > 0 && (
          <button type="button" class="chip needs" aria-pressed={attentionOnly} onClick={onToggleAttention}>{`● ${attention.needYou} need you`}</button>
        )}
        {attention.review > 0 && (
          <button type="button" class="chip review" aria-pressed={attentionOnly} onClick={onToggleAttention}>{`◆ ${attention.review} review`}</button>
        )}
        {attention.needYou === 0 && attention.review === 0 && <span class="chip quiet">{`${attention.count} waiting`}</span>}
      </span>
    </header>
  );
}
