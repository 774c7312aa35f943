// The header: the engine's attention count, and chips that narrow the list to what wants attention;
// below it, each provider's newest usage windows where an agent writes them (R83).
import type { PopoverState } from '../../engine/contract';
import { formatDuration } from '../../engine/duration';
import { clockTime } from '../model';

type Snapshot = PopoverState['snapshot'];

interface Props {
  /** The engine's counts (R32): the popover never re-derives what a band means. */
  attention: Snapshot['attention'];
  /** R83: the newest usage windows per provider (and machine). */
  limits: Snapshot['limits'];
  /** Short provider names by id, from the state's provider list. */
  providerNames: Readonly<Record<string, string>>;
  now: number;
  attentionOnly: boolean;
  onToggleAttention: () => void;
}

/** "Codex: 5h 42% (resets 15:00) · 7d 10%". */
function usageText(limit: Snapshot['limits'][number], names: Readonly<Record<string, string>>, now: number): string {
  const windows = limit.windows.map((window) => {
    const span = window.windowMinutes === null ? window.name : formatDuration(window.windowMinutes * 60_000);
    const reset = window.resetsAt === null ? '' : ` (resets ${clockTime(window.resetsAt, now)})`;
    return `${span} ${Math.round(window.usedPercent)}%${reset}`;
  });
  return `${names[limit.provider] ?? limit.provider}${limit.host === null ? '' : ` on ${limit.host}`}: ${windows.join(' · ')}`;
}

export function CountHeader({ attention, limits, providerNames, now, attentionOnly, onToggleAttention }: Props) {
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
        {attention.limited > 0 && <span class="chip limited" data-limited-count={attention.limited}>{`◷ ${attention.limited} stopped by a limit`}</span>}
      </span>
      {limits.length > 0 && (
        <ul class="usage" aria-label="Usage windows">
          {limits.map((limit) => (
            <li key={`${limit.host ?? ''}|${limit.provider}`}>{usageText(limit, providerNames, now)}</li>
          ))}
        </ul>
      )}
    </header>
  );
}
