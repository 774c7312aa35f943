// The popover's own state (what is selected, filtered, collapsed, held, open) and the one pure
// reducer that changes it. No DOM and no transport here: App.tsx turns events into side effects.
import type { Explanation } from '../engine/contract';
import type { AnswerDraft } from './answer';
import { choose, draftFor } from './answer';
import type { GroupId, QuickFilter } from './model';
import { GROUPS } from './model';

type PopoverView = 'list' | 'settings';

/** What was last shown, kept so rows hold still while the pointer is over the list. */
export interface Held {
  /** Row keys in the order they were last shown. */
  order: readonly string[];
  /** The group each row was shown in before the pointer came over the list. */
  groups: ReadonlyMap<string, GroupId>;
}

export interface PopoverUiState {
  selected: string | null;
  filter: string;
  quick: QuickFilter;
  collapsed: ReadonlySet<GroupId>;
  showHistorical: boolean;
  view: PopoverView;
  /** The last view request (by serial) followed, so each is followed once. */
  seenRequest: number;
  notice: string;
  hovering: boolean;
  held: Held;
  /** The row whose explanation was last asked for; an answer for any other is stale. */
  explaining: string | null;
  explanation: Explanation | null;
  /** The answer being made to the selected row's prompt (§13); one request at a time. */
  answer: AnswerDraft | null;
}

export function initialUi(): PopoverUiState {
  return {
    selected: null,
    filter: '',
    quick: 'all',
    collapsed: new Set(GROUPS.filter((group) => group.collapsed).map((group) => group.id)),
    showHistorical: false,
    view: 'list',
    seenRequest: 0,
    notice: '',
    hovering: false,
    held: { order: [], groups: new Map() },
    explaining: null,
    explanation: null,
    answer: null,
  };
}

/** The explanation is modal: while it is open the list behind it does not move. */
export function explainOpen(ui: PopoverUiState): boolean {
  return ui.explanation !== null;
}

/** Everything that changes the popover's own state. */
export type UiEvent =
  | { type: 'select'; key: string | null }
  /** A click on a row, or Space: selects it, or unselects it when it already is. */
  | { type: 'toggle-row'; key: string }
  /** Ctrl/⌘+J's target, found by `nextTarget`. */
  | { type: 'jump'; key: string | null; expand: GroupId | null; clearFilters: boolean }
  | { type: 'notice'; text: string }
  | { type: 'filter'; text: string }
  | { type: 'quick'; quick: QuickFilter }
  /** The header's count chips switch between every row and the ones wanting attention. */
  | { type: 'toggle-attention' }
  | { type: 'toggle-group'; id: GroupId }
  | { type: 'show-historical'; on: boolean }
  | { type: 'view'; view: PopoverView }
  | { type: 'view-requested'; view: PopoverView; serial: number }
  | { type: 'pointer'; over: boolean }
  | { type: 'shown'; held: Held }
  | { type: 'explain-asked'; key: string }
  | { type: 'explain-arrived'; key: string; explanation: Explanation | null }
  | { type: 'explain-closed' }
  /** §13, each naming the request it is for: a draft for another request starts afresh. */
  | { type: 'answer-choose'; request: string; question: number; option: number; multiple: boolean }
  | { type: 'answer-message'; request: string; text: string }
  | { type: 'answer-show-all'; request: string; on: boolean }
  | { type: 'answer-notice'; request: string; text: string }
  | { type: 'answer-sent'; request: string }
  /** The runtime's reply: empty when it was carried out, else its reason. */
  | { type: 'answer-result'; request: string; notice: string };

function without<T>(set: ReadonlySet<T>, item: T): ReadonlySet<T> {
  return set.has(item) ? new Set([...set].filter((member) => member !== item)) : set;
}

function sameOrder(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((key, index) => key === b[index]);
}

function sameGroups(a: ReadonlyMap<string, GroupId>, b: ReadonlyMap<string, GroupId>): boolean {
  return a.size === b.size && [...a].every(([key, group]) => b.get(key) === group);
}

export function reduce(ui: PopoverUiState, event: UiEvent): PopoverUiState {
  switch (event.type) {
    case 'select':
      return event.key === ui.selected ? ui : { ...ui, selected: event.key };
    case 'toggle-row':
      return { ...ui, selected: event.key === ui.selected ? null : event.key };
    case 'jump': {
      const cleared = event.clearFilters ? { ...ui, filter: '', quick: 'all' as const } : ui;
      if (event.key === null) return cleared;
      const collapsed = event.expand === null ? cleared.collapsed : without(cleared.collapsed, event.expand);
      return { ...cleared, collapsed, selected: event.key, notice: '' };
    }
    case 'notice':
      return { ...ui, notice: event.text };
    case 'filter':
      return { ...ui, filter: event.text };
    case 'quick':
      return { ...ui, quick: event.quick };
    case 'toggle-attention':
      return { ...ui, quick: ui.quick === 'attention' ? 'all' : 'attention' };
    case 'toggle-group':
      return { ...ui, collapsed: ui.collapsed.has(event.id) ? without(ui.collapsed, event.id) : new Set([...ui.collapsed, event.id]) };
    case 'show-historical':
      // Asking for historical rows also opens their group.
      return { ...ui, showHistorical: event.on, collapsed: event.on ? without(ui.collapsed, 'historical') : ui.collapsed };
    case 'view':
      return { ...ui, view: event.view };
    case 'view-requested':
      return event.serial === ui.seenRequest ? ui : { ...ui, view: event.view, seenRequest: event.serial };
    case 'pointer':
      return event.over === ui.hovering ? ui : { ...ui, hovering: event.over };
    case 'shown': {
      // Reported after every render: unchanged contents keep the same state, so nothing re-renders.
      const order = sameOrder(ui.held.order, event.held.order) ? ui.held.order : event.held.order;
      const groups = sameGroups(ui.held.groups, event.held.groups) ? ui.held.groups : event.held.groups;
      return order === ui.held.order && groups === ui.held.groups ? ui : { ...ui, held: { order, groups } };
    }
    case 'explain-asked':
      return { ...ui, explaining: event.key };
    case 'explain-arrived':
      if (event.key !== ui.explaining) return ui; // Closed, or asked for another row since.
      return { ...ui, explanation: event.explanation, notice: event.explanation === null ? 'no explanation for that row' : ui.notice };
    case 'explain-closed':
      return { ...ui, explaining: null, explanation: null };
    case 'answer-choose':
      return { ...ui, answer: choose(draftFor(ui.answer, event.request), event.question, event.option, event.multiple) };
    case 'answer-message':
      return { ...ui, answer: { ...draftFor(ui.answer, event.request), message: event.text } };
    case 'answer-show-all':
      return { ...ui, answer: { ...draftFor(ui.answer, event.request), showAll: event.on } };
    case 'answer-notice':
      return { ...ui, answer: { ...draftFor(ui.answer, event.request), notice: event.text } };
    case 'answer-sent':
      return { ...ui, answer: { ...draftFor(ui.answer, event.request), pending: true, notice: '' } };
    case 'answer-result':
      // A reply for a request no longer drafted (the row moved on) changes nothing.
      return ui.answer?.request === event.request ? { ...ui, answer: { ...ui.answer, pending: false, notice: event.notice } } : ui;
    default:
      return unreachable(event);
  }
}

/** A compile-time check that every case is handled. */
export function unreachable(value: never): never {
  throw new Error(`unhandled: ${JSON.stringify(value)}`);
}
