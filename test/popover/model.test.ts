// The popover's model without a DOM: groups and held order, filters, selection, the keys and the
// state they change. The browser test (popover.test.ts) checks the same behaviour through Chromium.
import { describe, expect, it } from 'vitest';
import type { Explanation, PopoverState } from '../../src/engine/contract';
import type { Row } from '../../src/engine/row';
import type { Band, Workflow } from '../../src/engine/vocabulary';
import type { KeyAction, KeyPress, KeyTarget } from '../../src/popover/keys';
import { KEYS_HELP, keyToAction } from '../../src/popover/keys';
import type { ListView } from '../../src/popover/list-view';
import { visibleGroups } from '../../src/popover/list-view';
import type { PopoverUiState, UiEvent } from '../../src/popover/ui-state';
import { initialUi, reduce } from '../../src/popover/ui-state';

const T = '2026-11-29T12:00:00.000Z';
// Provider ids come from the state's list; these are made up on purpose.
const PROVIDERS = [
  { id: 'alpha', name: 'Alpha Agent', shortName: 'Alpha', root: '/a', rootVariable: 'ALPHA_HOME', hooks: true },
  { id: 'beta', name: 'Beta Agent', shortName: 'Beta', root: '/b', rootVariable: 'BETA_HOME', hooks: false },
];

/** The workflow a band's rows usually carry (what decides the tone, and so the count). */
const WORKFLOW: Record<Band, Workflow> = {
  'needs-you': 'needs-input',
  failed: 'unreviewed',
  'limit-reset': 'unreviewed',
  limited: 'limited',
  'ready-for-review': 'unreviewed',
  flagged: 'flagged',
  'needs-review': 'needs-review',
  finished: 'unreviewed',
  working: 'working',
  unknown: 'unknown',
  idle: 'unreviewed',
  done: 'complete',
  historical: 'complete',
};

function row(key: string, band: Band, extra: Partial<Row> = {}): Row {
  return {
    key,
    host: null,
    provider: 'alpha',
    sessionId: key,
    title: `session ${key}`,
    cwd: `/work/${key}`,
    branch: null,
    lastActivityAt: T,
    observed: { state: 'idle', reason: 'turn-finished', detail: null, source: 'transcript', confidence: 'direct', at: T },
    children: { liveness: 'none', live: 0 },
    review: { state: 'unreviewed', by: null, at: null, newActivitySince: false },
    workflow: WORKFLOW[band],
    claim: null,
    muted: null,
    historical: band === 'historical',
    triageRank: 0,
    band,
    idleStale: false,
    resetsAt: null,
    answer: null,
    ...extra,
  };
}

function popover(sessions: Row[], waiting?: number): PopoverState {
  const needYou = sessions.filter((item) => item.band === 'needs-you' && item.muted === null && !item.historical).length;
  const count =
    waiting ??
    sessions.filter(
      (item) => ['needs-you', 'failed', 'ready-for-review', 'flagged', 'needs-review'].includes(item.band) && item.muted === null && !item.historical,
    ).length;
  return {
    snapshot: {
      schemaVersion: 1,
      now: T,
      attention: { count, level: count === 0 ? 'none' : needYou > 0 ? 'needs-you' : 'review', needYou, review: count - needYou, working: 0, limited: 0 },
      sessions,
      limits: [],
    },
    problems: [],
    settings: {
      timings: {},
      notifications: { enabled: true, needsYou: true, failed: true, finished: true, limits: true },
      openCommand: null,
      programsEditable: true,
      answering: { allowed: true, why: null },
      providers: PROVIDERS,
      hooks: [],
      hosts: [],
      rules: [],
    },
  };
}

const apply = (ui: PopoverUiState, ...events: UiEvent[]): PopoverUiState => events.reduce(reduce, ui);
const keysOf = (rows: readonly Row[]) => rows.map((item) => item.key);
const groupsOf = (view: ListView) => view.groups.map((group) => [group.id, keysOf(group.rows)]);
const page: KeyTarget = { kind: 'page' };
const press = (key: string, target: KeyTarget = page, mods: Partial<Pick<KeyPress, 'ctrl' | 'meta' | 'now'>> = {}): KeyPress => ({
  key,
  ctrl: false,
  meta: false,
  target,
  now: Date.parse(T),
  ...mods,
});
const actionOf = (key: string, ui: PopoverUiState, view: ListView, target: KeyTarget = page): KeyAction => keyToAction(press(key, target), ui, view).action;

// Engine order (R31): the popover lists rows in the order the snapshot gives them.
const ROWS = [
  row('ask', 'needs-you'),
  row('broke', 'failed', { provider: 'beta' }),
  row('build', 'working', { branch: 'feature/login' }),
  row('nap', 'idle'),
  row('old', 'historical'),
];
const STATE = popover(ROWS);
const EXPLANATION: Explanation = { key: 'ask', decidedBy: 'a rule', observations: [], children: [], liveness: 'alive', skippedLines: 0 };

describe('visibleGroups', () => {
  it('groups rows by band in triage order; historical rows only on request, idle ones collapsed', () => {
    const view = visibleGroups(initialUi(), STATE);
    expect(groupsOf(view)).toEqual([
      ['needs-you', ['ask']],
      ['failed', ['broke']],
      ['working', ['build']],
      ['idle', ['nap']],
    ]);
    // The collapsed Idle group is listed but the keys do not reach into it.
    expect(keysOf(view.navigable)).toEqual(['ask', 'broke', 'build']);
    expect(view.waiting).toBe(2);
    const historical = visibleGroups(reduce(initialUi(), { type: 'show-historical', on: true }), STATE);
    expect(groupsOf(historical).at(-1)).toEqual(['historical', ['old']]);
    expect(keysOf(historical.navigable)).toEqual(['ask', 'broke', 'build', 'old']);
  });

  it('puts muted rows in Muted whatever their band', () => {
    const view = visibleGroups(initialUi(), popover([row('ask', 'needs-you', { muted: { until: null } }), row('build', 'working')]));
    expect(groupsOf(view)).toEqual([
      ['working', ['build']],
      ['muted', ['ask']],
    ]);
  });

  it('holds order and groups while the pointer is over the list, and lets go when it leaves', () => {
    let ui = initialUi();
    ui = reduce(ui, { type: 'shown', held: visibleGroups(ui, STATE).held });
    ui = reduce(ui, { type: 'pointer', over: true });
    // Meanwhile: `ask` is muted, `build` now needs you (the engine moved it first), `broke` went, `fresh` arrived.
    const next = popover([row('build', 'needs-you'), row('fresh', 'needs-you'), row('nap', 'idle'), row('ask', 'needs-you', { muted: { until: null } })]);
    const held = visibleGroups(ui, next);
    expect(keysOf(held.rows)).toEqual(['ask', 'build', 'nap', 'fresh']);
    expect(groupsOf(held)).toEqual([
      ['needs-you', ['ask', 'fresh']],
      ['working', ['build']],
      ['idle', ['nap']],
    ]);
    // Fresh contents, old places: the held row is the new one.
    expect(held.rows[0]?.muted).toEqual({ until: null });
    ui = reduce(ui, { type: 'shown', held: held.held });
    ui = reduce(ui, { type: 'pointer', over: false });
    expect(groupsOf(visibleGroups(ui, next))).toEqual([
      ['needs-you', ['build', 'fresh']],
      ['idle', ['nap']],
      ['muted', ['ask']],
    ]);
  });

  it('reporting the same rows again changes nothing (no re-render)', () => {
    const ui = reduce(initialUi(), { type: 'shown', held: visibleGroups(initialUi(), STATE).held });
    expect(reduce(ui, { type: 'shown', held: visibleGroups(ui, STATE).held })).toBe(ui);
    expect(reduce(ui, { type: 'pointer', over: false })).toBe(ui);
  });

  it('filters by words across title, folder and branch; by attention; by a provider from the list', () => {
    expect(keysOf(visibleGroups(reduce(initialUi(), { type: 'filter', text: 'FEATURE  build' }), STATE).rows)).toEqual(['build']);
    expect(keysOf(visibleGroups(reduce(initialUi(), { type: 'filter', text: 'nothing-matches' }), STATE).rows)).toEqual([]);
    const attention = reduce(initialUi(), { type: 'toggle-attention' });
    expect(attention.quick).toBe('attention');
    expect(keysOf(visibleGroups(attention, STATE).rows)).toEqual(['ask', 'broke']);
    expect(reduce(attention, { type: 'toggle-attention' }).quick).toBe('all');
    expect(keysOf(visibleGroups(reduce(initialUi(), { type: 'quick', quick: 'provider:beta' }), STATE).rows)).toEqual(['broke']);
  });

  it('shows nothing before the first state arrives', () => {
    const view = visibleGroups(initialUi(), null);
    expect(view.groups).toEqual([]);
    expect(view.waiting).toBe(0);
  });
});

describe('moving the selection', () => {
  const view = visibleGroups(initialUi(), STATE);
  const at = (selected: string | null) => ({ ...initialUi(), selected });

  it('j/↓ from nothing selected goes to the first row, k/↑ to the last', () => {
    expect(actionOf('j', at(null), view)).toEqual({ type: 'move', key: 'ask' });
    expect(actionOf('ArrowDown', at(null), view)).toEqual({ type: 'move', key: 'ask' });
    expect(actionOf('k', at(null), view)).toEqual({ type: 'move', key: 'build' });
    expect(actionOf('ArrowUp', at(null), view)).toEqual({ type: 'move', key: 'build' });
  });

  it('steps one row at a time and stops at either end (no wrap)', () => {
    expect(actionOf('j', at('ask'), view)).toEqual({ type: 'move', key: 'broke' });
    expect(actionOf('k', at('broke'), view)).toEqual({ type: 'move', key: 'ask' });
    expect(actionOf('j', at('build'), view)).toEqual({ type: 'move', key: 'build' });
    expect(actionOf('k', at('ask'), view)).toEqual({ type: 'move', key: 'ask' });
    expect(keyToAction(press('j'), at('ask'), view).preventDefault).toBe(true);
  });

  it('skips collapsed groups; a selection hidden in one starts again from the end', () => {
    const ui = { ...reduce(initialUi(), { type: 'toggle-group', id: 'failed' }), selected: 'nap' };
    const collapsed = visibleGroups(ui, STATE);
    expect(keysOf(collapsed.navigable)).toEqual(['ask', 'build']);
    expect(actionOf('j', ui, collapsed)).toEqual({ type: 'move', key: 'ask' });
    expect(actionOf('k', ui, collapsed)).toEqual({ type: 'move', key: 'build' });
  });

  it('does nothing when no row is listed, and the move lands in the state', () => {
    const empty = visibleGroups(initialUi(), popover([]));
    expect(keyToAction(press('j'), initialUi(), empty)).toEqual({ action: { type: 'none' }, preventDefault: true });
    expect(reduce(initialUi(), { type: 'select', key: 'broke' }).selected).toBe('broke');
  });

  it('a click or Space on a row selects it, and again unselects it', () => {
    const ui = reduce(initialUi(), { type: 'toggle-row', key: 'ask' });
    expect(ui.selected).toBe('ask');
    expect(reduce(ui, { type: 'toggle-row', key: 'broke' }).selected).toBe('broke');
    expect(reduce(ui, { type: 'toggle-row', key: 'ask' }).selected).toBeNull();
  });
});

describe('Ctrl/⌘+J: the next row wanting attention (R33)', () => {
  const view = visibleGroups(initialUi(), STATE);
  const next = (ui: PopoverUiState, at: ListView = view) => keyToAction(press('j', page, { ctrl: true }), ui, at);

  it('goes to the next counted row after the selection, wrapping, and claims the key', () => {
    expect(next(initialUi())).toEqual({ action: { type: 'next', key: 'ask', expand: 'needs-you', clearFilters: false }, preventDefault: true });
    expect(next({ ...initialUi(), selected: 'ask' }).action).toMatchObject({ type: 'next', key: 'broke' });
    expect(next({ ...initialUi(), selected: 'broke' }).action).toMatchObject({ type: 'next', key: 'ask' });
    // From a row that does not count, the first that does.
    expect(next({ ...initialUi(), selected: 'build' }).action).toMatchObject({ type: 'next', key: 'ask' });
    expect(keyToAction(press('J', page, { meta: true }), initialUi(), view).action).toMatchObject({ type: 'next', key: 'ask' });
  });

  it('says "0 waiting" when nothing wants attention', () => {
    const quiet = popover([row('build', 'working'), row('ask', 'needs-you', { muted: { until: null } })]);
    const outcome = next(initialUi(), visibleGroups(initialUi(), quiet));
    expect(outcome.action).toEqual({ type: 'notice', text: '0 waiting' });
    expect(reduce(initialUi(), { type: 'notice', text: '0 waiting' }).notice).toBe('0 waiting');
  });

  it('clears the filters when they hide every waiting row, and opens a collapsed group', () => {
    let ui = apply(
      initialUi(),
      { type: 'filter', text: 'build' },
      { type: 'quick', quick: 'provider:alpha' },
      { type: 'toggle-group', id: 'failed' },
      { type: 'select', key: 'ask' },
      { type: 'notice', text: 'old news' },
    );
    const outcome = next(ui, visibleGroups(ui, STATE));
    expect(outcome.action).toEqual({ type: 'next', key: 'broke', expand: 'failed', clearFilters: true });
    if (outcome.action.type !== 'next') throw new Error('expected a jump');
    ui = reduce(ui, { type: 'jump', key: outcome.action.key, expand: outcome.action.expand, clearFilters: outcome.action.clearFilters });
    expect(ui).toMatchObject({ selected: 'broke', filter: '', quick: 'all', notice: '' });
    expect(ui.collapsed.has('failed')).toBe(false);
    expect(ui.collapsed.has('idle')).toBe(true);
  });

  it('works from the filter box, and not while the explanation is open', () => {
    expect(next({ ...initialUi(), filter: 'x' }, visibleGroups(initialUi(), STATE)).action).toMatchObject({ type: 'next' });
    expect(keyToAction(press('j', { kind: 'input' }, { ctrl: true }), initialUi(), view).action).toMatchObject({ type: 'next', key: 'ask' });
    const explaining = apply(initialUi(), { type: 'explain-asked', key: 'ask' }, { type: 'explain-arrived', key: 'ask', explanation: EXPLANATION });
    expect(next(explaining)).toEqual({ action: { type: 'none' }, preventDefault: true });
  });
});

describe('Escape', () => {
  const view = visibleGroups(initialUi(), STATE);
  const explaining = apply(initialUi(), { type: 'explain-asked', key: 'ask' }, { type: 'explain-arrived', key: 'ask', explanation: EXPLANATION });

  it('closes the explanation first, wherever focus is', () => {
    expect(actionOf('Escape', explaining, view)).toEqual({ type: 'close-explain' });
    expect(actionOf('Escape', { ...explaining, filter: 'x' }, view, { kind: 'input' })).toEqual({ type: 'close-explain' });
    const closed = reduce(explaining, { type: 'explain-closed' });
    expect(closed.explanation).toBeNull();
    expect(actionOf('Escape', closed, view)).toEqual({ type: 'close' });
  });

  it('in the filter box clears a filter before it closes the popover', () => {
    expect(actionOf('Escape', { ...initialUi(), filter: 'x' }, view, { kind: 'input' })).toEqual({ type: 'clear-filter' });
    expect(actionOf('Escape', initialUi(), view, { kind: 'input' })).toEqual({ type: 'close' });
    // Elsewhere a filter stays and the popover closes.
    expect(actionOf('Escape', { ...initialUi(), filter: 'x' }, view)).toEqual({ type: 'close' });
    expect(actionOf('Escape', { ...initialUi(), filter: 'x' }, view, { kind: 'field' })).toEqual({ type: 'close' });
  });

  it('closes the popover from the settings view too, leaving the browser its default', () => {
    expect(keyToAction(press('Escape'), reduce(initialUi(), { type: 'view', view: 'settings' }), view)).toEqual({
      action: { type: 'close' },
      preventDefault: false,
    });
  });
});

describe('the other keys', () => {
  const view = visibleGroups(initialUi(), STATE);
  const selected = { ...initialUi(), selected: 'broke' };
  const onRow = (key: string): KeyTarget => ({ kind: 'row', key });

  it('Enter opens the focused row, else the selected one', () => {
    expect(keyToAction(press('Enter'), selected, view)).toEqual({ action: { type: 'open', key: 'broke' }, preventDefault: true });
    expect(actionOf('Enter', selected, view, onRow('ask'))).toEqual({ type: 'open', key: 'ask' });
    expect(keyToAction(press('Enter'), initialUi(), view)).toEqual({ action: { type: 'none' }, preventDefault: true });
  });

  it('Space expands or collapses the focused (else selected) row; with neither it moves to the first', () => {
    expect(actionOf(' ', selected, view)).toEqual({ type: 'toggle-expand', key: 'broke' });
    expect(actionOf(' ', selected, view, onRow('ask'))).toEqual({ type: 'toggle-expand', key: 'ask' });
    expect(actionOf(' ', initialUi(), view)).toEqual({ type: 'move', key: 'ask' });
  });

  it('R, M, / claim the key and move focus; E explains the selection; ? shows the keys', () => {
    expect(keyToAction(press('r'), selected, view)).toEqual({ action: { type: 'review-menu' }, preventDefault: true });
    expect(actionOf('R', selected, view)).toEqual({ type: 'review-menu' });
    expect(keyToAction(press('m'), selected, view)).toEqual({ action: { type: 'mute-menu' }, preventDefault: true });
    expect(actionOf('M', selected, view)).toEqual({ type: 'mute-menu' });
    expect(keyToAction(press('/'), initialUi(), view)).toEqual({ action: { type: 'focus-filter' }, preventDefault: true });
    expect(keyToAction(press('e'), selected, view)).toEqual({ action: { type: 'explain', key: 'broke' }, preventDefault: false });
    // E explains the selection, not the focused row.
    expect(actionOf('E', selected, view, onRow('ask'))).toEqual({ type: 'explain', key: 'broke' });
    expect(actionOf('e', initialUi(), view)).toEqual({ type: 'none' });
    expect(actionOf('?', initialUi(), view)).toEqual({ type: 'notice', text: KEYS_HELP });
    expect(keyToAction(press('x'), selected, view)).toEqual({ action: { type: 'none' }, preventDefault: false });
  });

  it('are ignored while typing, on another control, in settings, and behind the explanation', () => {
    const explaining = apply(selected, { type: 'explain-asked', key: 'broke' }, { type: 'explain-arrived', key: 'broke', explanation: EXPLANATION });
    const settings = reduce(selected, { type: 'view', view: 'settings' });
    for (const key of ['j', 'k', 'ArrowDown', 'Enter', ' ', '/', 'r', 'm', 'e', '?']) {
      for (const [ui, target] of [
        [selected, { kind: 'input' }],
        [selected, { kind: 'field' }],
        [selected, { kind: 'control' }],
        [settings, page],
        [explaining, page],
      ] as const) {
        expect(keyToAction(press(key, target), ui, view), `${key} on ${target.kind} in ${ui.view}`).toEqual({
          action: { type: 'none' },
          preventDefault: false,
        });
      }
    }
  });
});

describe('explanations and views', () => {
  it('keeps only the answer for the row last asked, and says when there is none', () => {
    const asked = apply(initialUi(), { type: 'explain-asked', key: 'ask' }, { type: 'explain-asked', key: 'broke' });
    expect(reduce(asked, { type: 'explain-arrived', key: 'ask', explanation: EXPLANATION })).toBe(asked);
    expect(reduce(asked, { type: 'explain-arrived', key: 'broke', explanation: { ...EXPLANATION, key: 'broke' } }).explanation?.key).toBe('broke');
    expect(reduce(asked, { type: 'explain-arrived', key: 'broke', explanation: null })).toMatchObject({
      explanation: null,
      notice: 'no explanation for that row',
    });
    // Closed before the answer came: it is not shown.
    const closed = reduce(asked, { type: 'explain-closed' });
    expect(reduce(closed, { type: 'explain-arrived', key: 'broke', explanation: EXPLANATION })).toBe(closed);
  });

  it('follows each view request from the tray once', () => {
    const asked = reduce(initialUi(), { type: 'view-requested', view: 'settings', serial: 1 });
    expect(asked.view).toBe('settings');
    const back = reduce(asked, { type: 'view', view: 'list' });
    expect(reduce(back, { type: 'view-requested', view: 'settings', serial: 1 }).view).toBe('list');
    expect(reduce(back, { type: 'view-requested', view: 'settings', serial: 2 }).view).toBe('settings');
  });

  it('asking for historical rows opens their group; collapsing toggles', () => {
    const ui = reduce(initialUi(), { type: 'show-historical', on: true });
    expect(ui.showHistorical).toBe(true);
    expect(ui.collapsed.has('historical')).toBe(false);
    expect(reduce(ui, { type: 'show-historical', on: false }).collapsed.has('historical')).toBe(false);
    expect(reduce(ui, { type: 'toggle-group', id: 'historical' }).collapsed.has('historical')).toBe(true);
    expect(reduce(initialUi(), { type: 'toggle-group', id: 'idle' }).collapsed.has('idle')).toBe(false);
  });
});
