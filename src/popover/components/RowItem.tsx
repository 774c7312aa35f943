// One session row: mark, provider, title and age; then folder · branch and the request itself;
// expanded when selected, with its actions.
import type { ComponentChildren } from 'preact';
import type { Row } from '../../engine/row';
import type { PopoverCommand } from '../../engine/contract';
import { REVIEW_STATES } from '../../engine/vocabulary';
import { detailLine, markClass, providerName, rowAge, where } from '../model';
import { MenuButton } from './MenuButton';

interface Props {
  row: Row;
  /** Short provider names by id, from the state's provider list. */
  providerNames: Readonly<Record<string, string>>;
  now: number;
  selected: boolean;
  onSelect: (key: string) => void;
  onCommand: (command: PopoverCommand) => void;
  onExplain: (key: string) => void;
  reviewRef?: (element: HTMLButtonElement | null) => void;
  muteRef?: (element: HTMLButtonElement | null) => void;
  /** The selected row's prompt, answerable here (§13): shown first when the row expands. */
  answerCard?: ComponentChildren;
}

const MARKS: Record<ReturnType<typeof markClass>, string> = { needs: '●', review: '◆', working: '◐', neutral: '○' };

function mark(row: Row): string {
  if (row.claim?.ambiguous === true) return '◌';
  if (row.claim?.kind === 'failed') return '✕';
  if (row.claim?.kind === 'limited') return '◷';
  if (row.claim?.kind === 'limit-reset') return '↻';
  return MARKS[markClass(row)];
}

const MUTES = [
  { value: '1h', label: 'for 1 hour' },
  { value: 'tomorrow', label: 'until tomorrow' },
  { value: 'forever', label: 'until unmuted' },
  { value: 'project', label: 'this project (a rule)' },
];

export function RowItem({ row, providerNames, now, selected, onSelect, onCommand, onExplain, reviewRef, muteRef, answerCard }: Props) {
  const evidence = `${row.observed.confidence} · ${row.observed.source}${row.observed.at === null ? '' : ` · ${new Date(row.observed.at).toLocaleTimeString()}`}`;
  const since = rowAge(row, now);
  return (
    <li
      class={`row mark-${markClass(row)}${row.muted !== null || row.historical ? ' dim' : ''}${row.idleStale ? ' stale' : ''}${selected ? ' selected' : ''}`}
      data-session-key={row.key}
      data-workflow={row.workflow}
      data-band={row.band}
      aria-current={selected ? 'true' : undefined}
    >
      <button type="button" class="row-main" onClick={() => onSelect(row.key)} aria-expanded={selected}>
        <span class="line title-line">
          <span class="mark" aria-hidden="true">
            {mark(row)}
          </span>
          <span class="provider">{providerName(row, providerNames)}</span>
          {row.host !== null && (
            <span class="host" title={`on ${row.host}`}>
              {row.host}
            </span>
          )}
          <span class="title">{row.title ?? where(row)}</span>
          <span class="age">
            {/* The short age for the eye, the words for a screen reader (a plain span's aria-label is not read). */}
            {since.text === '' ? (
              ''
            ) : (
              <>
                <span aria-hidden="true">{since.text}</span>
                <span class="sr-only">{since.label}</span>
              </>
            )}
          </span>
        </span>
        <span class="line detail-line">
          <span class="detail">
            <span class="where">{where(row)}</span>
            {` — ${detailLine(row, now)}`}
          </span>
          <span class={`confidence ${row.observed.confidence}`} title={`${row.observed.confidence} evidence from ${row.observed.source}`}>
            {row.observed.confidence === 'unknown' ? '?' : row.observed.confidence}
            <span class="sr-only">{` evidence from ${row.observed.source}`}</span>
          </span>
        </span>
      </button>
      {selected && (
        <div class="expanded">
          {answerCard}
          {row.answer?.state === 'unavailable' && <div class="answer-why">{row.answer.why}</div>}
          <div class="full-title">{row.title ?? 'untitled session'}</div>
          <div class="path">{row.cwd ?? 'folder unknown'}</div>
          <div class="evidence">{evidence}</div>
          {row.children.live > 0 && <div class="children">{`${row.children.live} subagent${row.children.live === 1 ? '' : 's'} ${row.children.liveness}`}</div>}
          {row.review.newActivitySince && <div class="news">new activity since your review</div>}
          <div class="actions">
            <button type="button" onClick={() => onCommand({ type: 'open', key: row.key })}>
              Open
            </button>
            <MenuButton
              name="Review state"
              label={row.review.state.replace('-', ' ')}
              buttonRef={reviewRef}
              items={REVIEW_STATES.map((state) => ({ value: state, label: state.replace('-', ' '), checked: state === row.review.state }))}
              onChoose={(value) => {
                const state = REVIEW_STATES.find((item) => item === value);
                if (state !== undefined) onCommand({ type: 'review', key: row.key, state });
              }}
            />
            {row.muted === null ? (
              <MenuButton
                name="Mute"
                label="Mute"
                buttonRef={muteRef}
                items={MUTES}
                onChoose={(span) => {
                  if (span === '1h' || span === 'tomorrow' || span === 'forever') onCommand({ type: 'mute', key: row.key, span });
                  else if (span === 'project') onCommand({ type: 'mute-project', key: row.key });
                }}
              />
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
