// The rules the popover's settings view and row menu write (issue 16): their actions and ids.
import type { AutomationRule } from '../../engine';
import { literalGlob, projectName } from '../../engine';
import type { PopoverCommand } from '../../engine/contract';

/** What the settings view's "Add rule" does, by the action chosen. */
export const RULE_ACTIONS: Record<
  Extract<PopoverCommand, { type: 'rule-add' }>['action'],
  Omit<AutomationRule, 'id' | 'version' | 'when'> & { when?: AutomationRule['when'] }
> = {
  mute: { mute: true },
  'notify-never': { notify: 'never' },
  'notify-needs-you': { notify: 'needs-you' },
  'review-after-finish': { set: 'needs-review', when: { finished: true } },
};

/** `base`, or `base-2`, `base-3`…: an id no rule has, in the shape ids take. */
export function freeRuleId(base: string, rules: readonly AutomationRule[]): string {
  const clean =
    base
      .replace(/[^A-Za-z0-9._-]/g, '-')
      .replace(/^[^A-Za-z0-9]+/, '')
      .slice(0, 56) || 'rule';
  const taken = new Set(rules.map((rule) => rule.id));
  for (let n = 1; ; n += 1) {
    const id = n === 1 ? clean : `${clean}-${n}`;
    if (!taken.has(id)) return id;
  }
}

/** A rule muting a folder and everything under it (the row menu's "Mute this project"). */
export function projectMuteRule(cwd: string, rules: readonly AutomationRule[]): AutomationRule {
  if (!cwd.startsWith('/')) throw new Error('rules match folders written with "/" (macOS, Linux); on Windows, mute the session instead');
  return { id: freeRuleId(`mute-${projectName(cwd) ?? 'project'}`, rules), version: 1, when: { folder: `${literalGlob(cwd)}/**` }, mute: true };
}
