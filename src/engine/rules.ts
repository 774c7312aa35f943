// Rules per project (issue 16, R22 extended): a rule matches sessions by folder (a glob on the
// session's folder), provider and host, and then mutes them, sets a review state (after a
// finish, or after a time without activity) or sets how much they notify. Pure.
import type { AutomationRule, NotifyLevel } from './facts';

/** What a rule is matched against. */
export interface RuleSubject {
  cwd: string | null;
  provider: string;
  /** The machine's name for another machine's session; null for this machine's. */
  host: string | null;
}

/** A folder as a glob that matches just it: its `*`, `?` and `\` escaped. */
export function literalGlob(folder: string): string {
  return folder.replace(/[*?\\]/g, '\\$&');
}

/**
 * `*` any characters but "/", `**` any characters, `?` one character, `\` takes the next one as it
 * is; a pattern ending in "/**" also matches the folder itself.
 */
export function globMatch(pattern: string, path: string): boolean {
  if (pattern.endsWith('/**') && globMatch(pattern.slice(0, -3), path)) return true;
  return globRegex(pattern).test(path);
}

/** Each pattern compiled once: every session is matched against every rule at every evaluation. */
const compiled = new Map<string, RegExp>();
function globRegex(pattern: string): RegExp {
  const known = compiled.get(pattern);
  if (known !== undefined) return known;
  let source = '';
  for (let index = 0; index < pattern.length; index += 1) {
    const char = pattern[index] ?? '';
    if (char === '\\' && index + 1 < pattern.length) {
      index += 1;
      source += (pattern[index] ?? '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    } else if (char === '*' && pattern[index + 1] === '*') {
      source += '.*';
      index += 1;
    } else if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  const regex = new RegExp(`^${source}$`);
  compiled.set(pattern, regex);
  return regex;
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
  const actions = [rule.mute === true ? 'mute' : '', rule.notify === undefined ? '' : `notify ${rule.notify}`, rule.set === undefined ? '' : `review ${rule.set}`].filter((part) => part !== '');
  return `${rule.id} v${rule.version}: ${conditions.length === 0 ? 'every session' : conditions.join(', ')} → ${actions.join(', ')}`;
}
