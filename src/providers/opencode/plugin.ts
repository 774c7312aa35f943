// opencode's opt-in direct evidence: a small plugin of Lookout's own in opencode's config folder
// that appends the events the database never holds (an approval or a question waiting for the
// user, the session's status, its errors) to Lookout's spool, and what those lines say.
// Event names and shapes: opencode's bus (permission.asked/replied and question.* since 1.1;
// permission.updated in 1.0), as its plugin `event` hook delivers them.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { HookEdit, HookPlaces } from '../descriptor';
import type { HookReading } from '../hooks/events';
import type { JsonRecord } from '../jsonl/parse-record';
import { arr, num, obj, oneLine, str } from '../jsonl/parse-record';
import { PAYLOAD_MAX_BYTES, SPOOL_ROTATE_BYTES, spoolName } from '../hooks/spool-format';
import { answeringText } from './plugin-answer';

export const OPENCODE_HOOK_ENTRY = 'opencode';

/** The events the plugin passes on; everything else opencode publishes is left alone. */
export const OPENCODE_PLUGIN_EVENTS = [
  'permission.asked',
  'permission.updated',
  'permission.replied',
  'question.asked',
  'question.replied',
  'question.rejected',
  'session.status',
  'session.idle',
  'session.error',
] as const;

/**
 * opencode's global config folder ($XDG_CONFIG_HOME/opencode, else ~/.config/opencode) and its
 * plugin folder there: `plugins/` (what opencode reads now, with `plugin/`), unless the user
 * keeps theirs in `plugin/` only (the one folder older releases read).
 */
export function pluginPath(places: HookPlaces, app = 'opencode'): string {
  const xdg = places.env.XDG_CONFIG_HOME;
  const config = xdg !== undefined && xdg.trim() !== '' ? join(xdg, app) : join(places.userHome, '.config', app);
  const folder = existsSync(join(config, 'plugin')) && !existsSync(join(config, 'plugins')) ? 'plugin' : 'plugins';
  return join(config, folder, 'lookout.js');
}

/**
 * The plugin's text. It runs inside opencode (Bun): it must never throw, block or slow it down,
 * so it keeps only the fields Lookout reads (a permission's metadata can hold a whole diff), writes
 * one line with one append, and swallows every error. Its only export is the plugin function
 * (opencode calls every export).
 */
export function pluginText(spoolFolder: string, runFolder: string, provider = OPENCODE_HOOK_ENTRY): string {
  const literal = (value: string) => JSON.stringify(value).replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
  return `// Lookout's opencode plugin (written by \`lookout hooks install\`; \`lookout hooks uninstall\` removes it).
// It appends opencode's permission, question and session-status events to Lookout's spool, so the
// menu bar can tell when a session waits for you. It changes nothing in opencode and never throws.
import { createHash } from "node:crypto";
import { appendFileSync, closeSync, lstatSync, mkdirSync, openSync, readFileSync, readSync, renameSync, statSync } from "node:fs";
import { join } from "node:path";

const SPOOL = ${literal(spoolFolder)};
const FILE = join(SPOOL, ${literal(spoolName(provider))});
const HEARD = new Set(${JSON.stringify(OPENCODE_PLUGIN_EVENTS)});
const text = (value) => (typeof value === "string" ? value.slice(0, 500) : undefined);

// Only what Lookout reads: ids, what is asked, the status, an error's name and message.
function pick(p) {
  const status = p.status && typeof p.status === "object" ? { type: text(p.status.type), attempt: p.status.attempt, message: text(p.status.message) } : undefined;
  const error = p.error && typeof p.error === "object" ? { name: text(p.error.name), data: { message: text(p.error.data && p.error.data.message) } } : undefined;
  const questions = Array.isArray(p.questions) ? p.questions.slice(0, 3).map((q) => ({ question: text(q && q.question), header: text(q && q.header) })) : undefined;
  const patterns = Array.isArray(p.patterns) ? p.patterns.slice(0, 5).map(text) : undefined;
  return { sessionID: text(p.sessionID), id: text(p.id), requestID: text(p.requestID), permissionID: text(p.permissionID), permission: text(p.permission), type: text(p.type), pattern: text(p.pattern), patterns, title: text(p.title), reply: text(p.reply), response: text(p.response), questions, status, error };
}

// A line cut short before (a full disk) is ended first, so this one stands on its own.
function endsClean() {
  let fd;
  try {
    const size = statSync(FILE).size;
    if (size === 0) return true;
    if (size > ${SPOOL_ROTATE_BYTES}) {
      renameSync(FILE, FILE + ".1");
      return true;
    }
    fd = openSync(FILE, "r");
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, size - 1);
    return last[0] === 10;
  } catch {
    return true;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

${answeringText(runFolder, literal, provider)}
export const LookoutPlugin = async ({ directory, client }) => ({
  event: async ({ event }) => {
    try {
      if (!event || !HEARD.has(event.type)) return;
      const payload = JSON.stringify({ type: event.type, properties: pick(event.properties || {}), directory: typeof directory === "string" ? directory : null });
      if (payload.length > ${PAYLOAD_MAX_BYTES}) return;
      const line = '{"payload":' + payload + ',"provider":${JSON.stringify(provider)},"at":' + Date.now() + ',"precision":"ms","channel":"hook"}\\n';
      mkdirSync(SPOOL, { recursive: true, mode: 0o700 });
      appendFileSync(FILE, (endsClean() ? "" : "\\n") + line, { mode: 0o600 });
    } catch {
      // Lookout must never get in opencode's way.
    }
    // After the spool line: the request reaches Lookout after the event that raised the prompt.
    if (event) answering(client, event);
  },
});
`;
}

/** The plugin for opencode, or for a fork that loads opencode's plugins from its own config folder (`app`) and reports as `provider`. */
export function opencodePlugin(places: HookPlaces, provider = OPENCODE_HOOK_ENTRY, app = 'opencode', name = 'opencode'): HookEdit {
  return { kind: 'own-file', path: pluginPath(places, app), text: pluginText(places.spoolFolder, places.runFolder, provider), what: `Lookout's ${name} plugin` };
}

/** What a permission request asks: "bash: npm publish". */
function permissionDetail(properties: JsonRecord): string {
  const patterns = arr(properties.patterns).map(str).filter((item): item is string => item !== null);
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
      return reading({ kind: 'notice', message: oneLine(`retrying${attempt === null ? '' : ` (attempt ${attempt})`}: ${str(status?.message) ?? 'the model call failed'}`, 120) });
    }
    case 'session.error': {
      const error = obj(properties.error);
      // An abort is the user's own act; the database records it as the interrupt it is.
      if (str(error?.name) === 'MessageAbortedError') return settled;
      return reading({ kind: 'event', event: 'stop-failure', detail: oneLine(str(obj(error?.data)?.message) ?? str(error?.name) ?? 'the session failed', 100) });
    }
    default:
      return reading({ kind: 'ignored' });
  }
}
