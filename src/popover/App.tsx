// The popover: who needs you, and why, before the eye has moved (popover.md).
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { Explanation, PopoverCommand, PopoverState } from '../engine/contract';
import type { Row } from '../engine/row';
import { ExplainPanel } from './components/ExplainPanel';
import { SettingsView } from './components/SettingsView';
import { RowItem } from './components/RowItem';
import type { GroupId, QuickFilter } from './model';
import { GROUPS, counts, groupRows, holdOrder, matches, nextWanting, passesQuick } from './model';
import type { PopoverTransport } from './transport';

/** A selection must rest this long before it counts as a visit (arrowing past a row is not one). */
const VISIT_DWELL_MS = 600;

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
  const order = useRef<string[]>([]);
  const filterBox = useRef<HTMLInputElement>(null);
  const reviewControl = useRef<HTMLSelectElement | null>(null);
  const muteControl = useRef<HTMLElement | null>(null);

  useEffect(() => transport.subscribe((next) => {
    setState(next);
    setError(null);
  }, setError), [transport]);

  // The tray menu's "Settings…" asks for a view; each request (by serial) is followed once.
  const seenRequest = useRef(0);
  useEffect(() => {
    const request = state?.request;
    if (request === undefined || request.serial === seenRequest.current) return;
    seenRequest.current = request.serial;
    setView(request.view);
  }, [state?.request?.serial]);

  const send = async (command: PopoverCommand): Promise<boolean> => {
    const result = await transport.send(command);
    if (!result.ok) setNotice(result.error ?? 'that did not work');
    return result.ok;
  };

  // Selecting a row records a visit once it rests there (R30).
  useEffect(() => {
    const timer = setTimeout(() => void send({ type: 'select', key: selected }), selected === null ? 0 : VISIT_DWELL_MS);
    return () => clearTimeout(timer);
  }, [selected]);

  const rows = useMemo(() => {
    const all = state?.snapshot.sessions ?? [];
    const visible = all.filter((row) => matches(row, filter) && passesQuick(row, quick));
    return hovering ? holdOrder(order.current, visible) : visible;
  }, [state, filter, quick, hovering]);
  useEffect(() => {
    order.current = rows.map((row) => row.key);
  }, [rows]);

  const groups = groupRows(rows, showHistorical);
  const navigable: Row[] = groups.flatMap((group) => (collapsed.has(group.id) ? [] : group.rows));
  const summary = counts(state?.snapshot.sessions ?? []);
  const attention = state?.snapshot.attention ?? { count: 0, level: 'none' as const };

  const move = (delta: number): void => {
    if (navigable.length === 0) return;
    const index = navigable.findIndex((row) => row.key === selected);
    const next = navigable[index === -1 ? (delta > 0 ? 0 : navigable.length - 1) : Math.min(navigable.length - 1, Math.max(0, index + delta))];
    if (next !== undefined) setSelected(next.key);
  };

  const jumpNext = (): void => {
    const next = nextWanting(state?.snapshot.sessions ?? [], selected);
    if (next === null) {
      setNotice('0 waiting');
      return;
    }
    const group = groups.find((item) => item.rows.some((row) => row.key === next.key));
    if (group !== undefined && collapsed.has(group.id)) setCollapsed(new Set([...collapsed].filter((id) => id !== group.id)));
    setSelected(next.key);
    setNotice('');
  };

  const explain = async (key: string): Promise<void> => {
    setExplanation(await transport.explain(key));
  };

  useEffect(() => {
    const onKey = (event: KeyboardEvent): void => {
      const typing = event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement || event.target instanceof HTMLSelectElement;
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'j') {
        event.preventDefault();
        jumpNext();
        return;
      }
      if (event.key === 'Escape') {
        if (explanation !== null) setExplanation(null);
        else if (typing && event.target instanceof HTMLInputElement && filter !== '') setFilter('');
        else transport.hide();
        return;
      }
      if (typing || view !== 'list') return;
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
        case 'Enter':
          if (selected !== null) void send({ type: 'open', key: selected });
          return;
        case ' ':
          event.preventDefault();
          if (selected !== null) setSelected(null);
          else move(1);
          return;
        case '/':
          event.preventDefault();
          filterBox.current?.focus();
          return;
        case 'r':
        case 'R':
          reviewControl.current?.focus();
          return;
        case 'm':
        case 'M':
          muteControl.current?.focus();
          return;
        case 'e':
        case 'E':
          if (selected !== null) void explain(selected);
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
        <SettingsView settings={state.settings} onCommand={send} onBack={() => setView('list')} />
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
        <span class={`count level-${attention.level}`} data-attention-count={attention.count} aria-label={`${attention.count} want attention`}>
          {summary.needYou > 0 && <button type="button" class="chip needs" onClick={() => setQuick('attention')}>{`● ${summary.needYou} need you`}</button>}
          {summary.review > 0 && <button type="button" class="chip review" onClick={() => setQuick('attention')}>{`◆ ${summary.review} review`}</button>}
          {summary.needYou === 0 && summary.review === 0 && <span class="chip quiet">{`${attention.count} waiting`}</span>}
        </span>
      </header>
      <div class="tools">
        <input ref={filterBox} type="search" placeholder="/ filter sessions…" aria-label="Filter sessions" value={filter} onInput={(event) => setFilter(event.currentTarget.value)} />
        <select aria-label="Quick filter" value={quick} onChange={(event) => setQuick(event.currentTarget.value as QuickFilter)}>
          <option value="all">All</option>
          <option value="attention">Attention</option>
          <option value="claude">Claude</option>
          <option value="codex">Codex</option>
        </select>
        <button type="button" aria-label="Settings" onClick={() => setView('settings')}>
          ⚙
        </button>
      </div>
      <main class="list" onMouseEnter={() => setHovering(true)} onMouseLeave={() => setHovering(false)}>
        {attention.count === 0 ? (
          <p class="empty">{`All quiet — ${attention.count} waiting${summary.working > 0 ? ` · ${summary.working} working` : ''}`}</p>
        ) : null}
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
                    now={state.snapshot.now}
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
          <input type="checkbox" checked={showHistorical} onChange={(event) => setShowHistorical(event.currentTarget.checked)} /> Show historical sessions
        </label>
      </main>
      {explanation !== null && <ExplainPanel explanation={explanation} onClose={() => setExplanation(null)} />}
      <footer class="foot">
        <span role="status" class="notice">
          {notice}
        </span>
        <span class="keys">⌘J next · ↵ open · R review · M mute · E explain · / filter</span>
      </footer>
    </div>
  );
}
