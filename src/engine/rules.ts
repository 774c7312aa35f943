// Rules per project (issue 16, R22 extended): a rule matches sessions by folder (a glob on the
// session's folder), provider and host, and then mutes them, sets a review state (after a
// finish, or after a time without activity) or sets how much they notify. Pure.
import type { AutomationRule, NotifyLevel } from './facts';
import { globMatch } from './folder-glob';

export { FOLDER_GLOB_MAX, globMatch, literalGlob } from './folder-glob';

/** What a rule is matched against. */
export interface RuleSubject {
  cwd: string | null;
  provider: string;
  /** The machine's name for another machine's session; null for this machine's. */
  host: string | null;
}

/** Whether every condition the rule names holds ("local" is this machine in `host`). */
export function ruleMatches(rule: AutomationRule, subject: RuleSubject): boolean {
  const { folder, provider, host } = rule.when;
  if (folder !== undefined && (subject.cwd === null || !globMatch(folder, subject.cwd))) return false;
  if (provider !== undefined && provider !== subject.provider) return false;
  if (host !== undefined && host !== (subject.host ?? 'local')) return false;
  return true;
}

/** How much a session notifies: the first matching rule that says, else everything the switches allow. */
export function notifyLevel(rules: readonly AutomationRule[], subject: RuleSubject): NotifyLevel {
  return rules.find((rule) => rule.notify !== undefined && ruleMatches(rule, subject))?.notify ?? 'everything';
}

/** "noisy-1 v1: folder ~/work/noisy/** → mute". */
export function ruleLine(rule: AutomationRule): string {
  const { when } = rule;
  const conditions = [
    when.folder === undefined ? '' : `folder ${when.folder}`,
    when.provider === undefined ? '' : `provider ${when.provider}`,
    when.host === undefined ? '' : `host ${when.host}`,
    when.inactiveFor === undefined ? '' : `inactive for ${when.inactiveFor}`,
    when.finished === true ? 'after a finish' : '',
  ].filter((part) => part !== '');
  const actions = [
    rule.mute === true ? 'mute' : '',
    rule.notify === undefined ? '' : `notify ${rule.notify}`,
    rule.set === undefined ? '' : `review ${rule.set}`,
  ].filter((part) => part !== '');
  return `${rule.id} v${rule.version}: ${conditions.length === 0 ? 'every session' : conditions.join(', ')} → ${actions.join(', ')}`;
}
