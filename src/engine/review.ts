// Review state, automation rules and workflow status (status-model.md §4, R20–R23).
import type { AutomationRule, RuleApplication, UserFacts } from './facts';
import type { ReviewState, State, Workflow } from './vocabulary';
import type { Observation } from './observation';
import { parseDuration } from './duration';

export interface EffectiveReview {
  state: ReviewState;
  by: string | null;
  at: number | null;
  lastActivityAt: number | null;
}

/** A rule's duration, parsed once per rule object (pure memo). */
const spans = new WeakMap<AutomationRule, number | null>();
function ruleSpan(rule: AutomationRule): number | null {
  if (!spans.has(rule)) spans.set(rule, parseDuration(rule.when.inactiveFor));
  return spans.get(rule) ?? null;
}

/**
 * The ledger's entries for one session, indexed once per ledger: every session of every evaluation
 * asks, and the ledger grows with every rule applied. Facts are values (the engine already reuses
 * derivations by their identity), so one ledger array never changes.
 */
const ledgerIndex = new WeakMap<readonly RuleApplication[], Map<string, RuleApplication[]>>();
const NONE: readonly RuleApplication[] = [];
function ledgerFor(ledger: readonly RuleApplication[], key: string): readonly RuleApplication[] {
  let index = ledgerIndex.get(ledger);
  if (index === undefined) {
    index = new Map();
    for (const entry of ledger) {
      const list = index.get(entry.key);
      if (list === undefined) index.set(entry.key, [entry]);
      else list.push(entry);
    }
    ledgerIndex.set(ledger, index);
  }
  return index.get(key) ?? NONE;
}

export function ruleLabel(ruleId: string, version: number): string {
  return `rule:${ruleId}@${version}`;
}

/**
 * R22: the rules that apply now to one session. Each applies once per (session, id, version);
 * a session with unknown last activity never matches a time condition.
 */
export function dueRules(
  key: string,
  rules: readonly AutomationRule[],
  ledger: readonly RuleApplication[],
  lastActivityAt: number | null,
  now: number,
): RuleApplication[] {
  if (lastActivityAt === null) return [];
  const due: RuleApplication[] = [];
  for (const rule of rules) {
    const inactiveFor = ruleSpan(rule);
    if (inactiveFor === null || now - lastActivityAt < inactiveFor) continue;
    const applied = ledgerFor(ledger, key).some((entry) => entry.ruleId === rule.id && entry.version === rule.version);
    if (!applied) due.push({ key, ruleId: rule.id, version: rule.version, set: rule.set, at: now, lastActivityAt });
  }
  return due;
}

/** The newest edit wins, user or rule alike (R22: a later user edit stands). */
export function effectiveReview(key: string, facts: UserFacts, applied: readonly RuleApplication[]): EffectiveReview {
  let review: EffectiveReview = { state: 'unreviewed', by: null, at: null, lastActivityAt: null };
  const user = facts.reviews[key];
  if (user !== undefined) review = { state: user.state, by: 'user', at: user.at, lastActivityAt: user.lastActivityAt };
  for (const entry of [...ledgerFor(facts.ruleLedger, key), ...applied]) {
    if (entry.key !== key) continue;
    if (review.at === null || entry.at > review.at) {
      review = { state: entry.set, by: ruleLabel(entry.ruleId, entry.version), at: entry.at, lastActivityAt: entry.lastActivityAt };
    }
  }
  return review;
}

/** R23: activity after the review. */
export function newActivitySince(review: EffectiveReview, lastActivityAt: number | null): boolean {
  if (review.at === null || lastActivityAt === null) return false;
  return review.lastActivityAt === null ? lastActivityAt > review.at : lastActivityAt > review.lastActivityAt;
}

function asksForInput(observation: Observation): boolean {
  const asking: readonly State[] = ['awaiting-approval', 'awaiting-input', 'error'];
  return asking.includes(observation.state) || (observation.state === 'unknown' && observation.reason === 'tool-pending');
}

/** R20, first match wins. */
export function workflowOf(observation: Observation, review: ReviewState, historical: boolean): Workflow {
  if (!historical && asksForInput(observation)) return 'needs-input';
  if (observation.state === 'running' || observation.state === 'running-subagents') return 'working';
  if (review !== 'unreviewed') return review;
  if (observation.state === 'idle' || observation.state === 'ended') return 'unreviewed';
  return 'unknown';
}
