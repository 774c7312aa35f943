// Review state, automation rules and workflow status (docs/status-model.md §3, R20–R23).
import type { AutomationRule, RuleApplication, UserFacts } from './facts';
import type { ReviewState, State, Workflow } from './vocabulary';
import type { Observation } from './observation';
import { parseDuration } from './duration';
import type { RuleSubject } from './rules';
import { ruleMatches } from './rules';

export interface EffectiveReview {
  state: ReviewState;
  by: string | null;
  at: number | null;
  lastActivityAt: number | null;
}

/** A rule's duration, parsed once per rule object (pure memo). */
const spans = new WeakMap<AutomationRule, number | null>();
function ruleSpan(rule: AutomationRule): number | null {
  if (!spans.has(rule)) spans.set(rule, rule.when.inactiveFor === undefined ? null : parseDuration(rule.when.inactiveFor));
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

function ruleLabel(ruleId: string, version: number): string {
  return `rule:${ruleId}@${version}`;
}

/**
 * R22 and rules per project: the rules that apply now to one session (those that set a review
 * state or mute). Each applies once per (session, id, version); its conditions: the folder,
 * provider and host it names, the time without activity (a session with unknown last activity
 * never matches one), a finished turn.
 */
export function dueRules(
  key: string,
  rules: readonly AutomationRule[],
  ledger: readonly RuleApplication[],
  lastActivityAt: number | null,
  now: number,
  subject: RuleSubject & { finished: boolean },
): RuleApplication[] {
  const due: RuleApplication[] = [];
  for (const rule of rules) {
    if (rule.set === undefined && rule.mute !== true) continue;
    if (rule.when.inactiveFor !== undefined) {
      const inactiveFor = ruleSpan(rule);
      if (inactiveFor === null || lastActivityAt === null || now - lastActivityAt < inactiveFor) continue;
    }
    if ((rule.when.finished === true && !subject.finished) || !ruleMatches(rule, subject)) continue;
    const applied = ledgerFor(ledger, key).some((entry) => entry.ruleId === rule.id && entry.version === rule.version);
    if (!applied)
      due.push({ key, ruleId: rule.id, version: rule.version, set: rule.set ?? null, ...(rule.mute === true ? { mute: true } : {}), at: now, lastActivityAt });
  }
  return due;
}

/** The newest edit wins, user or rule alike (R22: a later user edit stands). */
export function effectiveReview(key: string, facts: UserFacts, applied: readonly RuleApplication[]): EffectiveReview {
  let review: EffectiveReview = { state: 'unreviewed', by: null, at: null, lastActivityAt: null };
  const user = facts.reviews[key];
  if (user !== undefined) review = { state: user.state, by: 'user', at: user.at, lastActivityAt: user.lastActivityAt };
  for (const entry of ledgerFor(facts.ruleLedger, key)) review = newerEdit(review, entry, key);
  for (const entry of applied) review = newerEdit(review, entry, key);
  return review;
}

function newerEdit(review: EffectiveReview, entry: RuleApplication, key: string): EffectiveReview {
  if (entry.key !== key || entry.set === null || (review.at !== null && entry.at <= review.at)) return review;
  return { state: entry.set, by: ruleLabel(entry.ruleId, entry.version), at: entry.at, lastActivityAt: entry.lastActivityAt };
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
  // R80: stopped until a reset; nothing to answer, nothing running.
  if (!historical && observation.state === 'limited') return 'limited';
  if (observation.state === 'running' || observation.state === 'running-subagents') return 'working';
  if (review !== 'unreviewed') return review;
  if (observation.state === 'idle' || observation.state === 'ended') return 'unreviewed';
  return 'unknown';
}
