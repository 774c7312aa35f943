// opencode's opt-in direct evidence: a small plugin of Lookout's own in opencode's config folder
// that appends the events the database never holds (an approval or a question waiting for the
// user, the session's status, its errors) to Lookout's spool, and what those lines say. The
// plugin's code is TypeScript in plugin-source/, bundled at build time (issue 48).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { HookEdit, HookPlaces } from '../descriptor';
import type { HookReading } from '../hooks/events';
import type { JsonRecord } from '../jsonl/parse-record';
import { arr, num, obj, oneLine, str } from '../jsonl/parse-record';
import { spoolName } from '../hooks/spool-format';
import { PLUGIN_BUNDLE } from './plugin-bundle';
import type { PluginConfig } from './plugin-source/config';

export const OPENCODE_HOOK_ENTRY = 'opencode';

/**
 * opencode's global config folder ($XDG_CONFIG_HOME/opencode, else ~/.config/opencode) and its
 * plugin folder there: `plugins/` (what opencode reads now, with `plugin/`), unless the user
 * keeps theirs in `plugin/` only (the one folder older releases read).
 */
function pluginPath(places: HookPlaces, app = 'opencode'): string {
  const xdg = places.env.XDG_CONFIG_HOME;
  const config = xdg !== undefined && xdg.trim() !== '' ? join(xdg, app) : join(places.userHome, '.config', app);
  const folder = existsSync(join(config, 'plugin')) && !existsSync(join(config, 'plugins')) ? 'plugin' : 'plugins';
  return join(config, folder, 'lookout.js');
}

/**
 * The plugin's text: its config line (this install's folders and provider) above the bundle of
 * plugin-source/ (built by scripts/plugin-bundle.mjs). It runs inside opencode (Bun): it must
 * never throw, block or slow it down; its only export is the plugin function.
 */
export function pluginText(spoolFolder: string, runFolder: string, provider = OPENCODE_HOOK_ENTRY): string {
  const config: PluginConfig = { spool: spoolFolder, file: join(spoolFolder, spoolName(provider)), run: runFolder, provider };
  const literal = JSON.stringify(config)
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
  return `// Lookout's opencode plugin (written by \`lookout hooks install\`; \`lookout hooks uninstall\` removes it).
// It appends opencode's permission, question and session-status events to Lookout's spool, so the
// menu bar can tell when a session waits for you, and brings a prompt to a running Lookout to be
// answered there. It changes nothing in opencode and never throws.
const LOOKOUT_PLUGIN = ${literal};

${PLUGIN_BUNDLE}`;
}

/** The plugin for opencode, or for a fork that loads opencode's plugins from its own config folder (`app`) and reports as `provider`. */
export function opencodePlugin(places: HookPlaces, provider = OPENCODE_HOOK_ENTRY, app = 'opencode', name = 'opencode'): HookEdit {
  return {
    kind: 'own-file',
    path: pluginPath(places, app),
    text: pluginText(places.spoolFolder, places.runFolder, provider),
    what: `Lookout's ${name} plugin`,
  };
}

/** What a permission request asks: "bash: npm publish". */
function permissionDetail(properties: JsonRecord): string {
  const patterns = arr(properties.patterns)
    .map(str)
    .filter((item): item is string => item !== null);
  const what = patterns.length > 0 ? patterns.join(' ') : (str(properties.pattern) ?? str(properties.title));
  const kind = str(properties.permission) ?? str(properties.type) ?? 'permission';
  return oneLine(what === null ? kind : `${kind}: ${what}`, 100);
}

/** One spool line from the plugin: an approval or a question waiting is a request, direct. */
export function readOpencodeEvent(payload: JsonRecord): HookReading {
  const properties = obj(payload.properties) ?? {};
  const reading = (fact: HookReading['fact']): HookReading => ({ sessionId: str(properties.sessionID), cwd: str(payload.directory), agentId: null, fact });
  const settled = reading({ kind: 'event', event: 'settled', detail: null });
  switch (str(payload.type)) {
    case 'permission.asked':
    case 'permission.updated':
      return reading({ kind: 'event', event: 'permission-request', detail: permissionDetail(properties) });
    case 'question.asked': {
      const question = str(obj(arr(properties.questions)[0])?.question);
      return reading({ kind: 'event', event: 'input-request', detail: question === null ? 'asks a question' : oneLine(`asks: ${question}`, 100) });
    }
    case 'permission.replied':
    case 'question.replied':
    case 'question.rejected':
    case 'session.idle':
      return settled;
    case 'session.status': {
      const status = obj(properties.status);
      if (str(status?.type) !== 'retry') return settled;
      const attempt = num(status?.attempt);
      return reading({
        kind: 'notice',
        message: oneLine(`retrying${attempt === null ? '' : ` (attempt ${attempt})`}: ${str(status?.message) ?? 'the model call failed'}`, 120),
      });
    }
    case 'session.error': {
      const error = obj(properties.error);
      // An abort is the user's own act; the database records it as the interrupt it is.
      if (str(error?.name) === 'MessageAbortedError') return settled;
      return reading({
        kind: 'event',
        event: 'stop-failure',
        detail: oneLine(str(obj(error?.data)?.message) ?? str(error?.name) ?? 'the session failed', 100),
      });
    }
    default:
      return reading({ kind: 'ignored' });
  }
}
