// What the list shows for a state and the popover's own state: the rows that pass the filters, in
// held order while the pointer is over the list, grouped by band, and which of them the keys reach.
import type { PopoverState } from '../engine/contract';
import type { Row } from '../engine/row';
import type { Group, GroupId } from './model';
import { groupOf, groupRows, holdOrder, matches, passesQuick } from './model';
import type { Held, PopoverUiState } from './ui-state';
import type { Answering } from './answer';

const NOT_YET: Answering = { allowed: false, why: 'not connected to Lookout yet' };

export interface ListView {
  /** Rows passing the filters, in the order shown (historical ones included, even when hidden). */
  rows: Row[];
  groups: Group[];
  /** Rows in open groups: what ↑/↓ move through. */
  navigable: Row[];
  /** What to hold should the pointer come over the list (the `shown` event carries it back). */
  held: Held;
  /** Every row of the snapshot, whatever the filters: Ctrl+J looks here when they hide all. */
  all: readonly Row[];
  /** The engine's attention count (R32); the popover never re-derives it. */
  waiting: number;
  /** Whether this popover may answer prompts, and why not (the host's word; none before a state). */
  answering: Answering;
}

const NO_GROUPS: ReadonlyMap<string, GroupId> = new Map();

export function visibleGroups(ui: PopoverUiState, state: PopoverState | null): ListView {
  const all = state?.snapshot.sessions ?? [];
  const passing = all.filter((row) => matches(row, ui.filter) && passesQuick(row, ui.quick));
  const rows = ui.hovering ? holdOrder(ui.held.order, passing) : passing;
  // While the pointer is over the list, rows also keep the group they were shown in.
  const groups = groupRows(rows, ui.showHistorical, ui.hovering ? ui.held.groups : NO_GROUPS);
  const navigable = groups.flatMap((group) => (ui.collapsed.has(group.id) ? [] : group.rows));
  const held: Held = {
    order: rows.map((row) => row.key),
    groups: ui.hovering ? ui.held.groups : new Map(rows.map((row) => [row.key, groupOf(row)])),
  };
  return { rows, groups, navigable, held, all, waiting: state?.snapshot.attention.count ?? 0, answering: state?.settings.answering ?? NOT_YET };
}
