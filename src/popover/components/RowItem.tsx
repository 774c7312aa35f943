// One session row: mark, title line, detail line; expanded when selected, with its actions.
import type { Row } from '../../engine/row';
import type { PopoverCommand } from '../../engine/contract';
import { REVIEW_STATES } from '../../engine/vocabulary';
import { age, detailLine, markClass, providerName, where } from '../model';

interface Props {
  row: Row;
  now: string;
  selected: boolean;
  onSelect: (key: string) => void;
  onCommand: (command: PopoverCommand) => void;
  onExplain: (key: string) => void;
  reviewRef?: (element: HTMLSelectElement | null) => void;
  muteRef?: (element: HTMLElement | null) => void;
}

const MARKS: Record<ReturnType<typeof markClass>, string> = { needs: '●', review: '◆', working: '◐', neutral: '○' };

export function RowItem({ row, now, selected, onSelect, onCommand, onExplain, reviewRef, muteRef }: Props) {
  const mark = row.claim?.ambiguous === true ? '◌' : MARKS[markClass(row)];
  const evidence = `${row.observed.confidence} · ${row.observed.source}${row.observed.at === null ? '' : ` · ${new Date(row.observed.at).toLocaleTimeString()}`}`;
  return (
    <li
      class={`row mark-${markClass(row)}${row.muted !== null || row.historical ? ' dim' : ''}${row.idleStale ? ' stale' : ''}${selected ? ' selected' : ''}`}
      data-session-key={row.key}
      data-workflow={row.workflow}
      data-rank={row.triageRank}
      aria-current={selected ? 'true' : undefined}
    >
      <button type="button" class="row-main" onClick={() => onSelect(row.key)} aria-expanded={selected} aria-label={`${providerName(row)} ${row.title ?? where(row)}: ${detailLine(row)}`}>
        <span class="line title-line">
          <span class="mark" aria-hidden="true">{mark}</span>
          <span class="provider">{providerName(row)}</span>
          <span class="where">{where(row)}</span>
          <span class="age">{age(row.claim?.since ?? row.lastActivityAt, now)}</span>
        </span>
        <span class="line detail-line">
          <span class="detail">{detailLine(row)}</span>
          <span class={`confidence ${row.observed.confidence}`} title={`${row.observed.confidence} evidence from ${row.observed.source}`}>
            {row.observed.confidence === 'direct' ? 'direct' : row.observed.confidence === 'inferred' ? 'inferred' : '?'}
          </span>
        </span>
      </button>
      {selected && (
        <div class="expanded">
          <div class="full-title">{row.title ?? 'untitled session'}</div>
          <div class="path">{row.cwd ?? 'folder unknown'}</div>
          <div class="evidence">{evidence}</div>
          {row.children.live > 0 && <div class="children">{`${row.children.live} subagent${row.children.live === 1 ? '' : 's'} ${row.children.liveness}`}</div>}
          {row.review.newActivitySince && <div class="news">new activity since your review</div>}
          <div class="actions">
            <button type="button" onClick={() => onCommand({ type: 'open', key: row.key })}>
              Open
            </button>
            <select aria-label="Review state" ref={reviewRef} value={row.review.state} onChange={(event) => onCommand({ type: 'review', key: row.key, state: (event.currentTarget.value as Row['review']['state']) })}>
              {REVIEW_STATES.map((state) => (
                <option value={state} key={state}>
                  {state.replace('-', ' ')}
                </option>
              ))}
            </select>
            {row.muted === null ? (
              <select
                aria-label="Mute"
                ref={muteRef}
                value=""
                onChange={(event) => {
                  const span = event.currentTarget.value;
                  if (span === '1h' || span === 'tomorrow' || span === 'forever') onCommand({ type: 'mute', key: row.key, span });
                }}
              >
                <option value="">mute…</option>
                <option value="1h">for 1 hour</option>
                <option value="tomorrow">until tomorrow</option>
                <option value="forever">until unmuted</option>
              </select>
            ) : (
              <button type="button" aria-label="Unmute" ref={muteRef} onClick={() => onCommand({ type: 'unmute', key: row.key })}>
                Unmute
              </button>
            )}
            <button type="button" onClick={() => onExplain(row.key)}>
              Explain
            </button>
          </div>
        </div>
      )}
    </li>
  );
}
