// The popover: who needs you, and why, before the eye has moved (popover.md).
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { Explanation, PopoverCommand, PopoverState } from '../engine/contract';
import type { Row } from '../engine/row';
import { ExplainPanel } from './components/ExplainPanel';
import { SettingsView } from './components/SettingsView';
import { RowItem } from './components/RowItem';
import type { GroupId, QuickFilter } from './model';
import { GROUPS, groupOf, groupRows, holdOrder, matches, nextWanting, passesQuick } from './model';
import type { PopoverTransport } from './transport';

/** A selection must rest this long before it counts as a visit (arrowing past a row is not one). */
const VISIT_DWELL_MS = 600;
/** Ages ("2m") move on between pushes. */
const AGE_TICK_MS = 15_000;

const KEYS_HELP = '↑/↓ or j/k move · Enter open · Space expand · ⌘J/Ctrl+J next · R review · M mute · E explain · / filter · Esc close';

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

export function App({ transport }: { transport: PopoverTransport }) {
  const [state, setState] = useState<PopoverState | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [filter, setFilter] = useState('');
  const [quick, setQuick] = useState<QuickFilter>('all');
  const [collapsed, setCollapsed] = useState<Set<GroupId>>(() => new Set(GROUPS.filter((group) => group.collapsed).map((group) => group.id)));
  const [showHistorical, setShowHistorical] = useState(false);
  const [explanation, setExplanation] = useState<Explanation | null>(null);
  const [view, setView] = useState<'list' | 'settings'>('list');
  const [notice, setNotice] = useState('');
  const [hovering, setHovering] = useState(false);
  const [offset, setOffset] = useState(0);
  const [, setTick] = useState(0);
  const order = useRef<string[]>([]);
  const shownGroups = useRef<Map<string, GroupId>>(new Map());
  const filterBox = useRef<HTMLInputElement>(null);
  const reviewControl = useRef<HTMLButtonElement | null>(null);
  const muteControl = useRef<HTMLButtonElement | null>(null);
  const explaining = useRef<string | null>(null);
  // Read by the key handler: a handler registered before the last render must not act on old state.
  const explainOpen = useRef(false);
  explainOpen.current = explanation !== null;

  useEffect(() => transport.subscribe((next) => {
    setState(next);
    setOffset(Date.parse(next.snapshot.now) - Date.now());
    setError(null);
  }, setError), [transport]);

  useEffect(() => {
    const timer = setInterval(() => setTick((value) => value + 1), AGE_TICK_MS);
    return () => clearInterval(timer);
  }, []);

  // The tray menu's "Settings…" asks for a view; each request (by serial) is followed once.
  const seenRequest = useRef(0);
  useEffect(() => {
    const request = state?.request;
    if (request === undefined || request.serial === seenRequest.current) return;
    seenRequest.current = request.serial;
    setView(request.view);
  }, [state?.request?.serial]);

  const send = async (command: PopoverCommand): Promise<boolean> => {
    try {
      const result = await transport.send(command);
      if (!result.ok) setNotice(result.error ?? 'that did not work');
      return result.ok;
    } catch (failure) {
      setNotice(`could not reach Lookout: ${failure instanceof Error ? failure.message : String(failure)}`);
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

  const rows = useMemo(() => {
    const all = state?.snapshot.sessions ?? [];
    const visible = all.filter((row) => matches(row, filter) && passesQuick(row, quick));
    return hovering ? holdOrder(order.current, visible) : visible;
  }, [state, filter, quick, hovering]);
  // While the pointer is over the list, rows also keep the group they were shown in.
  const groups = groupRows(rows, showHistorical, hovering ? shownGroups.current : new Map());
  useEffect(() => {
    order.current = rows.map((row) => row.key);
    if (!hovering) shownGroups.current = new Map(rows.map((row) => [row.key, groupOf(row)]));
  }, [rows, hovering]);

  const navigable: Row[] = groups.flatMap((group) => (collapsed.has(group.id) ? [] : group.rows));
  // The engine's counts: the popover never re-derives what a rank means.
  const summary = state?.snapshot.attention ?? { needYou: 0, review: 0, working: 0 };
  const providers = state?.settings.providers ?? [];
  const shortNames = Object.fromEntries(providers.map((provider) => [provider.id, provider.shortName]));
  const attention = state?.snapshot.attention ?? { count: 0, level: 'none' as const };
  const now = Date.now() + offset;

  const move = (delta: number): void => {
    if (navigable.length === 0) return;
    const index = navigable.findIndex((row) => row.key === selected);
    const next = navigable[index === -1 ? (delta > 0 ? 0 : navigable.length - 1) : Math.min(navigable.length - 1, Math.max(0, index + delta))];
    if (next !== undefined) setSelected(next.key);
  };

  const jumpNext = (): void => {
    if (attention.count === 0) {
      setNotice('0 waiting');
      return;
    }
    // Among the rows listed; if the filter hides every one that waits, the filter goes.
    let next = nextWanting(rows, selected);
    if (next === null) {
      setFilter('');
      setQuick('all');
      next = nextWanting(state?.snapshot.sessions ?? [], selected);
    }
    if (next === null) return;
    const group = groupOf(next);
    if (collapsed.has(group)) setCollapsed(new Set([...collapsed].filter((id) => id !== group)));
    setSelected(next.key);
    setNotice('');
  };

  const explain = async (key: string): Promise<void> => {
    explaining.current = key;
    try {
      const result = await transport.explain(key);
      if (explaining.current !== key) return; // Closed, or asked for another row since.
      if (result === null) setNotice('no explanation for that row');
      setExplanation(result);
    } catch (failure) {
      setNotice(`could not reach Lookout: ${failure instanceof Error ? failure.message : String(failure)}`);
    }
  };
  const closeExplain = (): void => {
    explaining.current = null;
    setExplanation(null);
    if (selected !== null) rowButton(selected)?.focus();
  };

  useEffect(() => {
    const onKey = (event: KeyboardEvent): void => {
      const target = event.target instanceof HTMLElement ? event.target : null;
      const typing = target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement;
      const rowButtonFocused = target?.classList.contains('row-main') === true;
      const otherControl = !rowButtonFocused && target !== null && target.closest('button, a, [role="menu"]') !== null;
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'j') {
        event.preventDefault();
        if (!explainOpen.current) jumpNext();
        return;
      }
      if (event.key === 'Escape') {
        if (explainOpen.current) closeExplain();
        else if (typing && target instanceof HTMLInputElement && filter !== '') setFilter('');
        else transport.hide();
        return;
      }
      // The explanation is modal: the list behind it does not move. Keys pressed on another
      // control (a menu, a button) are that control's own.
      if (typing || view !== 'list' || explainOpen.current || otherControl) return;
      const focusedKey = rowButtonFocused ? (target?.closest<HTMLElement>('[data-session-key]')?.dataset.sessionKey ?? null) : null;
      switch (event.key) {
        case 'ArrowDown':
        case 'j':
          event.preventDefault();
          move(1);
          return;
        case 'ArrowUp':
        case 'k':
          event.preventDefault();
          move(-1);
          return;
        case 'Enter': {
          // On a row (or nowhere) Enter opens that row.
          event.preventDefault();
          const key = focusedKey ?? selected;
          if (key !== null) void send({ type: 'open', key });
          return;
        }
        case ' ': {
          event.preventDefault();
          const key = focusedKey ?? selected;
          if (key === null) move(1);
          else setSelected(key === selected ? null : key);
          return;
        }
        case '/':
          event.preventDefault();
          filterBox.current?.focus();
          return;
        case 'r':
        case 'R':
          event.preventDefault();
          (reviewControl.current ?? selectedControl(selected, 'Review state'))?.focus();
          return;
        case 'm':
        case 'M':
          event.preventDefault();
          (muteControl.current ?? selectedControl(selected, 'Mute') ?? selectedControl(selected, 'Unmute'))?.focus();
          return;
        case 'e':
        case 'E':
          if (selected !== null) void explain(selected);
          return;
        case '?':
          setNotice(KEYS_HELP);
          return;
        default:
          return;
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

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
        <SettingsView settings={state.settings} onCommand={send} onBack={() => setView('list')} notice={notice} />
      </div>
    );
  }

  const toggle = (id: GroupId): void => setCollapsed((current) => (current.has(id) ? new Set([...current].filter((item) => item !== id)) : new Set([...current, id])));

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
      <header class="head">
        <h1>Lookout</h1>
        <span class={`count level-${attention.level}`} role="status" data-attention-count={attention.count}>
          <span class="sr-only">{`${attention.count} want attention: `}</span>
          {summary.needYou > 0 && (
            <button type="button" class="chip needs" aria-pressed={quick === 'attention'} onClick={() => setQuick(quick === 'attention' ? 'all' : 'attention')}>{`● ${summary.needYou} need you`}</button>
          )}
          {summary.review > 0 && (
            <button type="button" class="chip review" aria-pressed={quick === 'attention'} onClick={() => setQuick(quick === 'attention' ? 'all' : 'attention')}>{`◆ ${summary.review} review`}</button>
          )}
          {summary.needYou === 0 && summary.review === 0 && <span class="chip quiet">{`${attention.count} waiting`}</span>}
        </span>
      </header>
      <div class="tools">
        <input ref={filterBox} type="search" placeholder="/ filter sessions…" aria-label="Filter sessions" value={filter} onInput={(event) => setFilter(event.currentTarget.value)} />
        <select aria-label="Quick filter" value={quick} onChange={(event) => setQuick(event.currentTarget.value as QuickFilter)}>
          <option value="all">All</option>
          <option value="attention">Attention</option>
          {providers.map((provider) => (
            <option key={provider.id} value={`provider:${provider.id}`}>
              {provider.shortName}
            </option>
          ))}
        </select>
        <button type="button" aria-label="Settings" onClick={() => setView('settings')}>
          ⚙
        </button>
      </div>
      <main class="list" onMouseEnter={() => setHovering(true)} onMouseLeave={() => setHovering(false)}>
        {attention.count === 0 ? <p class="empty">{`All quiet — 0 waiting${summary.working > 0 ? ` · ${summary.working} working` : ''}`}</p> : null}
        {groups.map((group) => (
          <section class="group" key={group.id} aria-label={group.title}>
            <h2>
              <button type="button" aria-expanded={!collapsed.has(group.id)} onClick={() => toggle(group.id)}>
                {`${group.title} (${group.rows.length})`}
                <span aria-hidden="true">{collapsed.has(group.id) ? ' ▸' : ' ▾'}</span>
              </button>
            </h2>
            {!collapsed.has(group.id) && (
              <ul role="list">
                {group.rows.map((row) => (
                  <RowItem
                    key={row.key}
                    row={row}
                    providerNames={shortNames}
                    now={now}
                    selected={row.key === selected}
                    onSelect={(key) => setSelected(key === selected ? null : key)}
                    onCommand={(command) => void send(command)}
                    onExplain={(key) => void explain(key)}
                    reviewRef={row.key === selected ? (element) => (reviewControl.current = element) : undefined}
                    muteRef={row.key === selected ? (element) => (muteControl.current = element) : undefined}
                  />
                ))}
              </ul>
            )}
          </section>
        ))}
        <label class="historical-toggle">
          <input
            type="checkbox"
            checked={showHistorical}
            onChange={(event) => {
              const on = event.currentTarget.checked;
              setShowHistorical(on);
              if (on) setCollapsed(new Set([...collapsed].filter((id) => id !== 'historical')));
            }}
          />{' '}
          Show historical sessions
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
