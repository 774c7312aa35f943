// The popover: who needs you, and why, before the eye has moved (popover.md). A thin component:
// its state and keys live in ui-state.ts, list-view.ts and keys.ts; here they meet the DOM.
import { useEffect, useMemo, useReducer, useRef, useState } from 'preact/hooks';
import type { PopoverCommand, PopoverState } from '../engine/contract';
import type { Row } from '../engine/row';
import { ExplainPanel } from './components/ExplainPanel';
import { SettingsView } from './components/SettingsView';
import { CountHeader } from './components/CountHeader';
import { GroupSection } from './components/GroupSection';
import { RowItem } from './components/RowItem';
import { Toolbar } from './components/Toolbar';
import { AnswerCard } from './components/AnswerCard';
import type { AnswerAction, AnswerIntent } from './answer';
import { answerAction, draftFor, openAnswer, releaseAction } from './answer';
import type { KeyAction, KeyTarget } from './keys';
import { keyToAction, nextTarget, selectTarget } from './keys';
import { visibleGroups } from './list-view';
import { initialUi, reduce, unreachable } from './ui-state';
import type { PopoverTransport } from './transport';

/** A selection must rest this long before it counts as a visit (arrowing past a row is not one). */
const VISIT_DWELL_MS = 600;
/** Ages ("2m") move on between pushes. */
const AGE_TICK_MS = 15_000;
/** How the answer keys are written here: ⌘ on macOS, Ctrl elsewhere. */
const MOD = /Mac|iPhone|iPad/.test(navigator.platform) ? '⌘' : 'Ctrl+';

function rowButton(key: string): HTMLButtonElement | null {
  for (const item of document.querySelectorAll<HTMLElement>('[data-session-key]')) {
    if (item.dataset.sessionKey === key) return item.querySelector<HTMLButtonElement>('.row-main');
  }
  return null;
}

/** A control of the selected row, found in the page (its ref may not be set yet). */
function selectedControl(key: string | null, name: string): HTMLElement | null {
  if (key === null) return null;
  return rowButton(key)?.closest('[data-session-key]')?.querySelector<HTMLElement>(`[aria-label="${name}"]`) ?? null;
}

/** Where a key was pressed, in the terms keys.ts maps from. */
function keyTarget(target: EventTarget | null): KeyTarget {
  if (!(target instanceof HTMLElement)) return { kind: 'page' };
  if (target instanceof HTMLInputElement) return { kind: 'input' };
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return { kind: 'field' };
  if (target.classList.contains('row-main')) return { kind: 'row', key: target.closest<HTMLElement>('[data-session-key]')?.dataset.sessionKey ?? null };
  if (target.closest('button, a, [role="menu"]') !== null) return { kind: 'control' };
  return { kind: 'page' };
}

export function App({ transport }: { transport: PopoverTransport }) {
  const [state, setState] = useState<PopoverState | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [ui, dispatch] = useReducer(reduce, undefined, initialUi);
  const [offset, setOffset] = useState(0);
  const [, setTick] = useState(0);
  const filterBox = useRef<HTMLInputElement>(null);
  const reviewControl = useRef<HTMLButtonElement | null>(null);
  const muteControl = useRef<HTMLButtonElement | null>(null);
  const { selected, filter, quick, collapsed, showHistorical, view, notice, explanation } = ui;

  useEffect(
    () =>
      transport.subscribe((next) => {
        setState(next);
        setOffset(Date.parse(next.snapshot.now) - Date.now());
        setError(null);
      }, setError),
    [transport],
  );

  useEffect(() => {
    const timer = setInterval(() => setTick((value) => value + 1), AGE_TICK_MS);
    return () => clearInterval(timer);
  }, []);

  // The tray menu's "Settings…" asks for a view, its global key for the next session wanting
  // attention (as Ctrl/⌘+J here); each request (by serial) is followed once.
  useEffect(() => {
    const request = state?.request;
    if (request === undefined || request.serial === ui.seenRequest) return;
    dispatch({ type: 'view-requested', view: request.view, serial: request.serial });
    if (request.jump === true) perform(nextTarget(ui, list));
    if (request.select !== undefined) perform(selectTarget(list, request.select));
  }, [state?.request?.serial]);

  const send = async (command: PopoverCommand): Promise<boolean> => {
    try {
      const result = await transport.send(command);
      if (!result.ok) dispatch({ type: 'notice', text: result.error ?? 'that did not work' });
      return result.ok;
    } catch (failure) {
      dispatch({ type: 'notice', text: `could not reach Lookout: ${failure instanceof Error ? failure.message : String(failure)}` });
      return false;
    }
  };

  // Selecting a row records a visit once it rests there (R30); the row is then on screen.
  useEffect(() => {
    const timer = setTimeout(() => void send({ type: 'select', key: selected }), selected === null ? 0 : VISIT_DWELL_MS);
    return () => clearTimeout(timer);
  }, [selected]);

  // Shown again after being hidden: the selected row is on screen again.
  useEffect(() => {
    const onVisible = (): void => {
      if (document.visibilityState === 'visible') void send({ type: 'select', key: selected });
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => document.removeEventListener('visibilitychange', onVisible);
  }, [selected]);

  // The selected row stays in view as the keys move it.
  useEffect(() => {
    if (selected !== null) rowButton(selected)?.scrollIntoView({ block: 'nearest' });
  }, [selected]);

  const list = useMemo(() => visibleGroups(ui, state), [ui, state]);
  // What was shown is what holds should the pointer come over the list.
  useEffect(() => dispatch({ type: 'shown', held: list.held }), [list]);

  const explain = async (key: string): Promise<void> => {
    dispatch({ type: 'explain-asked', key });
    try {
      dispatch({ type: 'explain-arrived', key, explanation: await transport.explain(key) });
    } catch (failure) {
      dispatch({ type: 'notice', text: `could not reach Lookout: ${failure instanceof Error ? failure.message : String(failure)}` });
    }
  };
  const closeExplain = (): void => {
    dispatch({ type: 'explain-closed' });
    if (selected !== null) rowButton(selected)?.focus();
  };

  // §13: an answer or a let-go, its refusal said on the card that showed the prompt.
  const sendAnswer = async (command: Extract<AnswerAction, { type: 'send-answer' }>['command']): Promise<void> => {
    dispatch({ type: 'answer-sent', request: command.request });
    try {
      const result = await transport.send(command);
      dispatch({ type: 'answer-result', request: command.request, notice: result.ok ? '' : (result.error ?? 'that did not work') });
    } catch (failure) {
      dispatch({
        type: 'answer-result',
        request: command.request,
        notice: `could not reach Lookout: ${failure instanceof Error ? failure.message : String(failure)}`,
      });
    }
  };

  const perform = (action: KeyAction): void => {
    switch (action.type) {
      case 'send-answer':
        void sendAnswer(action.command);
        return;
      case 'answer-notice':
        dispatch({ type: 'answer-notice', request: action.request, text: action.text });
        return;
      case 'answer-choose':
        dispatch(action);
        return;
      case 'move':
        dispatch({ type: 'select', key: action.key });
        return;
      case 'toggle-expand':
        dispatch({ type: 'toggle-row', key: action.key });
        return;
      case 'next':
        dispatch({ type: 'jump', key: action.key, expand: action.expand, clearFilters: action.clearFilters });
        return;
      case 'notice':
        dispatch({ type: 'notice', text: action.text });
        return;
      case 'open':
        void send({ type: 'open', key: action.key });
        return;
      case 'review-menu':
        (reviewControl.current ?? selectedControl(selected, 'Review state'))?.focus();
        return;
      case 'mute-menu':
        (muteControl.current ?? selectedControl(selected, 'Mute') ?? selectedControl(selected, 'Unmute'))?.focus();
        return;
      case 'explain':
        void explain(action.key);
        return;
      case 'focus-filter':
        filterBox.current?.focus();
        return;
      case 'clear-filter':
        dispatch({ type: 'filter', text: '' });
        return;
      case 'close-explain':
        closeExplain();
        return;
      case 'close':
        transport.hide();
        return;
      case 'none':
        return;
      default:
        unreachable(action);
    }
  };

  // Read by the key handler: it is registered once and must act on the last render, not the first.
  const latest = useRef({ ui, list, perform });
  latest.current = { ui, list, perform };
  const latestOffset = useRef(offset);
  latestOffset.current = offset;
  useEffect(() => {
    const onKey = (event: KeyboardEvent): void => {
      const { ui: current, list: shown, perform: act } = latest.current;
      const outcome = keyToAction(
        { key: event.key, ctrl: event.ctrlKey, meta: event.metaKey, target: keyTarget(event.target), now: Date.now() + latestOffset.current },
        current,
        shown,
      );
      if (outcome.preventDefault) event.preventDefault();
      act(outcome.action);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  if (state === null) {
    return (
      <div class="popover">
        <p class="loading" role="status">
          {error ?? 'Reading sessions…'}
        </p>
      </div>
    );
  }

  if (view === 'settings') {
    return (
      <div class="popover">
        <SettingsView settings={state.settings} onCommand={send} onBack={() => dispatch({ type: 'view', view: 'list' })} notice={notice} />
      </div>
    );
  }

  /** The selected row's prompt as a card, when it has one open (§13). */
  const answerCard = (row: Row) => {
    const open = openAnswer(row);
    if (open === null) return undefined;
    const { answering } = state.settings;
    const act = (action: AnswerAction | null): void => {
      if (action !== null) perform(action);
    };
    const intent = (what: AnswerIntent, via: 'key' | 'click'): void =>
      act(answerAction({ row, draft: ui.answer, intent: what, via, now: Date.now() + offset, answering }));
    return (
      <AnswerCard
        open={open}
        draft={draftFor(ui.answer, open.request)}
        answering={answering}
        mod={MOD}
        onIntent={intent}
        onRelease={() => act(releaseAction(row, answering))}
        onChoose={(question, option, multiple) => dispatch({ type: 'answer-choose', request: open.request, question, option, multiple })}
        onMessage={(text) => dispatch({ type: 'answer-message', request: open.request, text })}
        onShowAll={(on) => dispatch({ type: 'answer-show-all', request: open.request, on })}
      />
    );
  };

  // The engine's counts: the popover never re-derives what a rank means.
  const { attention } = state.snapshot;
  const shortNames = Object.fromEntries(state.settings.providers.map((provider) => [provider.id, provider.shortName]));
  const now = Date.now() + offset;

  return (
    <div class="popover" data-level={attention.level}>
      {error !== null && (
        <div class="problem" role="alert">
          {error}
        </div>
      )}
      {state.problems.map((problem) => (
        <div class="problem" role="alert" key={problem.id}>
          <span>{problem.text}</span>
          <button type="button" aria-label="Dismiss" onClick={() => void send({ type: 'dismiss', id: problem.id })}>
            ×
          </button>
        </div>
      ))}
      <CountHeader
        attention={attention}
        limits={state.snapshot.limits}
        providerNames={shortNames}
        now={now}
        attentionOnly={quick === 'attention'}
        onToggleAttention={() => dispatch({ type: 'toggle-attention' })}
      />
      <Toolbar
        filter={filter}
        quick={quick}
        providers={state.settings.providers}
        hosts={state.settings.hosts}
        filterRef={filterBox}
        onFilter={(text) => dispatch({ type: 'filter', text })}
        onQuick={(value) => dispatch({ type: 'quick', quick: value })}
        onSettings={() => dispatch({ type: 'view', view: 'settings' })}
      />
      <main class="list" onMouseEnter={() => dispatch({ type: 'pointer', over: true })} onMouseLeave={() => dispatch({ type: 'pointer', over: false })}>
        {attention.count === 0 ? (
          <p class="empty">{`All quiet — 0 waiting${attention.working > 0 ? ` · ${attention.working} working` : ''}${attention.limited > 0 ? ` · ${attention.limited} held by a usage limit` : ''}`}</p>
        ) : null}
        {list.groups.map((group) => (
          <GroupSection key={group.id} group={group} collapsed={collapsed.has(group.id)} onToggle={() => dispatch({ type: 'toggle-group', id: group.id })}>
            {group.rows.map((row) => (
              <RowItem
                key={row.key}
                row={row}
                providerNames={shortNames}
                now={now}
                selected={row.key === selected}
                onSelect={(key) => dispatch({ type: 'toggle-row', key })}
                onCommand={(command) => void send(command)}
                onExplain={(key) => void explain(key)}
                reviewRef={row.key === selected ? (element) => (reviewControl.current = element) : undefined}
                muteRef={row.key === selected ? (element) => (muteControl.current = element) : undefined}
                answerCard={row.key === selected ? answerCard(row) : undefined}
              />
            ))}
          </GroupSection>
        ))}
        <label class="historical-toggle">
          <input type="checkbox" checked={showHistorical} onChange={(event) => dispatch({ type: 'show-historical', on: event.currentTarget.checked })} /> Show
          historical sessions
        </label>
      </main>
      {explanation !== null && <ExplainPanel explanation={explanation} onClose={closeExplain} />}
      <footer class="foot">
        <span role="status" class="notice">
          {notice}
        </span>
        <span class="keys">⌘J next · ↵ open · R review · M mute · E explain · / filter · ? keys</span>
      </footer>
    </div>
  );
}
