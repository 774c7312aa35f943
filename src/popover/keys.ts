// The popover's keys as pure data: a key press (and where focus was) becomes one action, which
// App.tsx carries out. Keeping the mapping here lets it be tested without a DOM.
import type { GroupId } from './model';
import { groupOf, nextWanting } from './model';
import type { ListView } from './list-view';
import type { PopoverUiState } from './ui-state';
import { explainOpen } from './ui-state';
import type { AnswerAction } from './answer';
import { answerAction, digitAction, digitOption } from './answer';

export const KEYS_HELP =
  '↑/↓ or j/k move · Enter open · Space expand · ⌘J/Ctrl+J next · R review · M mute · E explain · / filter · Esc close · a prompt: ⌘↩/Ctrl+Enter allow (or send) · ⌘⌫/Ctrl+Backspace deny · 1–9 choose';

/** Where focus was when the key was pressed: only as much of the DOM as the mapping reads. */
export type KeyTarget =
  /** Any <input>: the filter box, or a checkbox. */
  | { kind: 'input' }
  /** A <textarea> or <select>. */
  | { kind: 'field' }
  /** A row's main button, with that row's key. */
  | { kind: 'row'; key: string | null }
  /** Another button, a link or a menu: its keys are its own. */
  | { kind: 'control' }
  | { kind: 'page' };

export interface KeyPress {
  key: string;
  ctrl: boolean;
  meta: boolean;
  target: KeyTarget;
  /** The runtime's clock as the popover knows it: R72's grace is counted on it. */
  now: number;
}

export type KeyAction =
  | { type: 'move'; key: string }
  | { type: 'toggle-expand'; key: string }
  | { type: 'next'; key: string | null; expand: GroupId | null; clearFilters: boolean }
  | { type: 'notice'; text: string }
  | { type: 'open'; key: string }
  | { type: 'review-menu' }
  | { type: 'mute-menu' }
  | { type: 'explain'; key: string }
  | { type: 'focus-filter' }
  | { type: 'clear-filter' }
  | { type: 'close-explain' }
  | { type: 'close' }
  | AnswerAction
  | { type: 'none' };

export interface KeyOutcome {
  action: KeyAction;
  /** Whether the browser's own handling of the key is suppressed. */
  preventDefault: boolean;
}

const NONE: KeyAction = { type: 'none' };
const claimed = (action: KeyAction): KeyOutcome => ({ action, preventDefault: true });
const passed = (action: KeyAction): KeyOutcome => ({ action, preventDefault: false });

/** ↑/↓: from nothing selected to the first (or last) row; at either end the selection stays. */
function moveTarget(ui: PopoverUiState, view: ListView, delta: 1 | -1): KeyAction {
  const rows = view.navigable;
  if (rows.length === 0) return NONE;
  const index = rows.findIndex((row) => row.key === ui.selected);
  const next = rows[index === -1 ? (delta > 0 ? 0 : rows.length - 1) : Math.min(rows.length - 1, Math.max(0, index + delta))];
  return next === undefined ? NONE : { type: 'move', key: next.key };
}

/** R33: the next row wanting attention among those listed; if the filters hide every one, they go. */
export function nextTarget(ui: PopoverUiState, view: ListView): KeyAction {
  if (view.waiting === 0) return { type: 'notice', text: '0 waiting' };
  const listed = nextWanting(view.rows, ui.selected);
  const next = listed ?? nextWanting(view.all, ui.selected);
  return { type: 'next', key: next?.key ?? null, expand: next === null ? null : groupOf(next), clearFilters: listed === null };
}

/** One named session (a digest notification's click): selected, its group open, filters cleared if they hide it. */
export function selectTarget(view: ListView, key: string): KeyAction {
  const row = view.all.find((item) => item.key === key);
  if (row === undefined) return NONE;
  return { type: 'next', key, expand: groupOf(row), clearFilters: !view.rows.some((item) => item.key === key) };
}

/**
 * §13's keys, for the selected row's prompt: Ctrl/⌘+Enter allows (a question: sends the chosen
 * options), Ctrl/⌘+Backspace denies, 1–9 choose an option of a one-question prompt. They work on
 * the card's own buttons too (a key there is still a key, R72), never while typing. Null when the
 * key is not one of them or the selected row has no prompt, so it keeps its usual meaning.
 */
function answerKey(press: KeyPress, ui: PopoverUiState, view: ListView): KeyOutcome | null {
  const { target } = press;
  if (target.kind === 'input' || target.kind === 'field' || ui.view !== 'list' || explainOpen(ui)) return null;
  const row = view.all.find((item) => item.key === ui.selected);
  if (row === undefined || row.answer === null) return null;
  const modified = press.ctrl || press.meta;
  if (modified && (press.key === 'Enter' || press.key === 'Backspace')) {
    if (row.answer.state === 'unavailable') return claimed({ type: 'notice', text: row.answer.why });
    const intent = press.key === 'Backspace' ? 'deny' : row.answer.state === 'open' && row.answer.prompt === 'question' ? 'send' : 'allow';
    return claimed(answerAction({ row, draft: ui.answer, intent, via: 'key', now: press.now, answering: view.answering }) ?? NONE);
  }
  const digit = modified ? null : digitOption(press.key);
  const chosen = digit === null ? null : digitAction(row, digit);
  return chosen === null ? null : claimed(chosen);
}

export function keyToAction(press: KeyPress, ui: PopoverUiState, view: ListView): KeyOutcome {
  const { target } = press;
  if ((press.ctrl || press.meta) && press.key.toLowerCase() === 'j') {
    return claimed(explainOpen(ui) ? NONE : nextTarget(ui, view));
  }
  if (press.key === 'Escape') {
    if (explainOpen(ui)) return passed({ type: 'close-explain' });
    if (target.kind === 'input' && ui.filter !== '') return passed({ type: 'clear-filter' });
    return passed({ type: 'close' });
  }
  const answering = answerKey(press, ui, view);
  if (answering !== null) return answering;
  // The explanation is modal: the list behind it does not move. Keys pressed while typing, or on
  // another control (a menu, a button), are that control's own.
  if (target.kind === 'input' || target.kind === 'field' || target.kind === 'control' || ui.view !== 'list' || explainOpen(ui)) return passed(NONE);
  const focused = target.kind === 'row' ? target.key : null;
  switch (press.key) {
    case 'ArrowDown':
    case 'j':
      return claimed(moveTarget(ui, view, 1));
    case 'ArrowUp':
    case 'k':
      return claimed(moveTarget(ui, view, -1));
    case 'Enter': {
      // On a row (or nowhere) Enter opens that row.
      const key = focused ?? ui.selected;
      return claimed(key === null ? NONE : { type: 'open', key });
    }
    case ' ': {
      const key = focused ?? ui.selected;
      return claimed(key === null ? moveTarget(ui, view, 1) : { type: 'toggle-expand', key });
    }
    case '/':
      return claimed({ type: 'focus-filter' });
    case 'r':
    case 'R':
      return claimed({ type: 'review-menu' });
    case 'm':
    case 'M':
      return claimed({ type: 'mute-menu' });
    case 'e':
    case 'E':
      return passed(ui.selected === null ? NONE : { type: 'explain', key: ui.selected });
    case '?':
      return passed({ type: 'notice', text: KEYS_HELP });
    default:
      return passed(NONE);
  }
}
