// The one fold of a lead and its children into the row's observation (R11). Every provider
// publishes through this function; the parity table in test/ checks that (R13).
import type { ChildView } from './children';
import type { ChildLiveness } from './vocabulary';
import type { Observation } from './observation';
import { isAsking, observe } from './observation';

export function foldLead(lead: Observation, children: readonly ChildView[], liveness: ChildLiveness): Observation {
  // 1. The lead is asking: its own request wins.
  if (isAsking(lead.state)) return { ...lead, rule: `R11.1 lead asking (${lead.rule})` };
  // 2. A child is waiting: the row waits, per the child's request.
  const waitingChild = oldestWaiting(children);
  if (waitingChild !== null && waitingChild.request !== null) {
    const state = waitingChild.request.kind === 'approval' ? 'awaiting-approval' : 'awaiting-input';
    const detail = `${waitingChild.request.detail} (subagent ${waitingChild.name})`;
    return observe(state, 'child-waiting', waitingChild.at, waitingChild.source, 'inferred', detail, 'R11.2 a child is waiting');
  }
  // 3. The lead is running.
  if (lead.state === 'running') return lead;
  // 4. The lead is idle and children work or monitor.
  if (lead.state === 'idle' && (liveness === 'working' || liveness === 'monitoring')) {
    const newest = newestLive(children);
    const at = Math.max(lead.at, newest?.at ?? lead.at);
    const detail = liveness === 'monitoring' ? 'background watcher running' : `subagent ${newest?.name ?? ''} working`.trim();
    return observe('running-subagents', 'child-working', at, newest?.source ?? lead.source, 'inferred', detail, 'R11.4 lead idle, children live');
  }
  // 5. Otherwise the lead's own state.
  return lead;
}

function oldestWaiting(children: readonly ChildView[]): ChildView | null {
  let found: ChildView | null = null;
  for (const child of children) {
    if (child.state === 'waiting' && (found === null || child.at < found.at)) found = child;
  }
  return found;
}

function newestLive(children: readonly ChildView[]): ChildView | null {
  let found: ChildView | null = null;
  for (const child of children) {
    const live = child.state === 'working' || child.state === 'blocked';
    if (live && (found === null || child.at > found.at)) found = child;
  }
  return found;
}
