// `lookout rules list|add|remove`: rules per project (issue 16), kept in settings.json beside
// R22's automation rules. A rule matches by folder (a glob), provider and host, then mutes, sets
// how much the session notifies, or sets a review state after a finish.
import { parseArgs } from 'node:util';
import type { AutomationRule } from '../../engine';
import { FOLDER_GLOB_MAX, REVIEW_STATES, defaultSettings, ruleLine } from '../../engine';
import { providerIds } from '../../providers';
import { resolveNow } from '../cli/now-option';
import { UsageError } from '../cli/usage-error';
import { printLines } from '../text/terminal-text';
import { lookoutHome } from '../store/home';
import { NOTIFY_LEVELS, settingsSchema } from '../store/schema';
import { readSettingsFile, updateSettings } from '../store/settings-store';

const isLevel = (value: string): value is (typeof NOTIFY_LEVELS)[number] => (NOTIFY_LEVELS as readonly string[]).includes(value);
const isState = (value: string): value is (typeof REVIEW_STATES)[number] => (REVIEW_STATES as readonly string[]).includes(value);

/** rule-N after the rules there are, or the next number no rule has taken. */
function freeId(rules: readonly AutomationRule[]): string {
  for (let n = rules.length + 1; ; n += 1) if (!rules.some((rule) => rule.id === `rule-${n}`)) return `rule-${n}`;
}

export async function rulesCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: {
      id: { type: 'string' },
      folder: { type: 'string' },
      provider: { type: 'string' },
      host: { type: 'string' },
      mute: { type: 'boolean' },
      notify: { type: 'string' },
      'after-finish': { type: 'string' },
      now: { type: 'string' },
    },
    strict: true,
    allowPositionals: true,
  });
  const [action, subject, ...extra] = positionals;
  const now = resolveNow(values.now);
  const home = lookoutHome(process.env);
  if (extra.length > 0) throw new UsageError(`rules ${action ?? ''} takes at most one argument`);
  // As written in settings.json (a "~/" folder stays so), not as applied.
  const written = (): AutomationRule[] => {
    const { file, problems } = readSettingsFile(home, now);
    printLines(process.stderr, problems);
    return file.rules ?? defaultSettings().rules;
  };
  switch (action) {
    case 'list': {
      const rules = written();
      printLines(process.stdout, rules.length === 0 ? ['no rules'] : rules.map(ruleLine));
      return 0;
    }
    case 'add': {
      if (subject !== undefined) throw new UsageError('rules add takes options only (--folder, --provider, --host, then --mute, --notify or --after-finish)');
      const { folder, provider, host, notify } = values;
      const afterFinish = values['after-finish'];
      if (folder === undefined && provider === undefined && host === undefined)
        throw new UsageError('rules add needs --folder <glob>, --provider <id> or --host <name> (which sessions)');
      if (folder !== undefined && folder.length > FOLDER_GLOB_MAX)
        throw new UsageError(`--folder takes a glob of at most ${FOLDER_GLOB_MAX} characters (got ${folder.length})`);
      if (folder !== undefined && !/^(\/|~\/)/.test(folder)) throw new UsageError(`--folder takes an absolute folder or one under ~/ (got "${folder}")`);
      if (provider !== undefined && !providerIds().includes(provider)) throw new UsageError(`--provider takes ${providerIds().join(', ')} (got "${provider}")`);
      if (notify !== undefined && !isLevel(notify)) throw new UsageError(`--notify takes ${NOTIFY_LEVELS.join(', ')} (got "${notify}")`);
      if (afterFinish !== undefined && !isState(afterFinish))
        throw new UsageError(`--after-finish takes a review state: ${REVIEW_STATES.join(', ')} (got "${afterFinish}")`);
      if (values.mute !== true && notify === undefined && afterFinish === undefined)
        throw new UsageError('rules add needs an action: --mute, --notify <level> or --after-finish <review state>');
      const conditions: Omit<AutomationRule, 'id'> = {
        version: 1,
        when: {
          ...(folder === undefined ? {} : { folder }),
          ...(provider === undefined ? {} : { provider }),
          ...(host === undefined ? {} : { host }),
          ...(afterFinish === undefined ? {} : { finished: true }),
        },
        ...(values.mute === true ? { mute: true } : {}),
        ...(notify === undefined || !isLevel(notify) ? {} : { notify }),
        ...(afterFinish === undefined || !isState(afterFinish) ? {} : { set: afterFinish }),
      };
      const checked = settingsSchema.safeParse({ rules: [{ id: values.id ?? 'rule', ...conditions }] });
      if (!checked.success) throw new UsageError(`that rule is not one settings.json takes: ${checked.error.issues[0]?.message ?? 'invalid'}`);
      const taken = (rules: readonly AutomationRule[], id: string): void => {
        if (rules.some((rule) => rule.id === id)) throw new UsageError(`a rule "${id}" exists already (rules remove ${id} first, or --id another)`);
      };
      if (values.id !== undefined) taken(written(), values.id);
      // The id and the check that it is free, again against the rules as read under the lock (issue 25 item 6).
      let added: AutomationRule = { id: '', ...conditions };
      const problems = updateSettings(home, now, (file) => {
        const rules = file.rules ?? defaultSettings().rules;
        const id = values.id ?? freeId(rules);
        taken(rules, id);
        added = { id, ...conditions };
        return { ...file, rules: [...rules, added] };
      });
      printLines(process.stderr, problems);
      printLines(process.stdout, [`added: ${ruleLine(added)}`]);
      return 0;
    }
    case 'remove': {
      if (subject === undefined) throw new UsageError('rules remove needs a rule id (see lookout rules list)');
      const known = (rules: readonly AutomationRule[]): void => {
        if (!rules.some((rule) => rule.id === subject))
          throw new UsageError(`no rule "${subject}" (${rules.length === 0 ? 'none are set' : rules.map((rule) => rule.id).join(', ')})`);
      };
      known(written());
      // Removed from the rules as read under the lock: one added meanwhile stays.
      const problems = updateSettings(home, now, (file) => {
        const rules = file.rules ?? defaultSettings().rules;
        known(rules);
        return { ...file, rules: rules.filter((rule) => rule.id !== subject) };
      });
      printLines(process.stderr, problems);
      printLines(process.stdout, [`${subject}: removed`]);
      return 0;
    }
    default:
      throw new UsageError('rules takes list, add or remove');
  }
}
