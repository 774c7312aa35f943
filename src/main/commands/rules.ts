// `lookout rules list|add|remove`: rules per project (issue 16), kept in settings.json beside
// R22's automation rules. A rule matches by folder (a glob), provider and host, then mutes, sets
// how much the session notifies, or sets a review state after a finish.
import { parseArgs } from 'node:util';
import type { AutomationRule } from '../../engine';
import { REVIEW_STATES, defaultSettings, ruleLine } from '../../engine';
import { providerIds } from '../../providers';
import { resolveNow } from '../cli/now-option';
import { UsageError } from '../cli/usage-error';
import { printLines } from '../cli/terminal-text';
import { lookoutHome } from '../store/home';
import { NOTIFY_LEVELS, settingsSchema } from '../store/schema';
import { readSettingsFile, updateSettings } from '../store/settings-store';

const isLevel = (value: string): value is (typeof NOTIFY_LEVELS)[number] => (NOTIFY_LEVELS as readonly string[]).includes(value);
const isState = (value: string): value is (typeof REVIEW_STATES)[number] => (REVIEW_STATES as readonly string[]).includes(value);

export async function rulesCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { id: { type: 'string' }, folder: { type: 'string' }, provider: { type: 'string' }, host: { type: 'string' }, mute: { type: 'boolean' }, notify: { type: 'string' }, 'after-finish': { type: 'string' }, now: { type: 'string' } },
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
      if (folder === undefined && provider === undefined && host === undefined) throw new UsageError('rules add needs --folder <glob>, --provider <id> or --host <name> (which sessions)');
      if (folder !== undefined && !/^(\/|~\/)/.test(folder)) throw new UsageError(`--folder takes an absolute folder or one under ~/ (got "${folder}")`);
      if (provider !== undefined && !providerIds().includes(provider)) throw new UsageError(`--provider takes ${providerIds().join(', ')} (got "${provider}")`);
      if (notify !== undefined && !isLevel(notify)) throw new UsageError(`--notify takes ${NOTIFY_LEVELS.join(', ')} (got "${notify}")`);
      if (afterFinish !== undefined && !isState(afterFinish)) throw new UsageError(`--after-finish takes a review state: ${REVIEW_STATES.join(', ')} (got "${afterFinish}")`);
      if (values.mute !== true && notify === undefined && afterFinish === undefined) throw new UsageError('rules add needs an action: --mute, --notify <level> or --after-finish <review state>');
      const rules = written();
      const id = values.id ?? `rule-${rules.length + 1}`;
      if (rules.some((rule) => rule.id === id)) throw new UsageError(`a rule "${id}" exists already (rules remove ${id} first, or --id another)`);
      const rule: AutomationRule = {
        id,
        version: 1,
        when: { ...(folder === undefined ? {} : { folder }), ...(provider === undefined ? {} : { provider }), ...(host === undefined ? {} : { host }), ...(afterFinish === undefined ? {} : { finished: true }) },
        ...(values.mute === true ? { mute: true } : {}),
        ...(notify === undefined || !isLevel(notify) ? {} : { notify }),
        ...(afterFinish === undefined || !isState(afterFinish) ? {} : { set: afterFinish }),
      };
      const checked = settingsSchema.safeParse({ rules: [...rules, rule] });
      if (!checked.success) throw new UsageError(`that rule is not one settings.json takes: ${checked.error.issues[0]?.message ?? 'invalid'}`);
      printLines(process.stderr, updateSettings(home, now, (file) => ({ ...file, rules: [...(file.rules ?? rules), rule] })));
      printLines(process.stdout, [`added: ${ruleLine(rule)}`]);
      return 0;
    }
    case 'remove': {
      if (subject === undefined) throw new UsageError('rules remove needs a rule id (see lookout rules list)');
      const rules = written();
      if (!rules.some((rule) => rule.id === subject)) throw new UsageError(`no rule "${subject}" (${rules.length === 0 ? 'none are set' : rules.map((rule) => rule.id).join(', ')})`);
      printLines(process.stderr, updateSettings(home, now, (file) => ({ ...file, rules: rules.filter((rule) => rule.id !== subject) })));
      printLines(process.stdout, [`${subject}: removed`]);
      return 0;
    }
    default:
      throw new UsageError('rules takes list, add or remove');
  }
}
