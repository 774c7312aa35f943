// settings.json: validated on load; a bad file is kept aside and the defaults apply (cli.md).
import { existsSync, readFileSync } from 'node:fs';
import { withLock } from '../../providers/system/folder-lock';
import { privateFolder, writePrivate } from '../../providers/system/private-files';
import { join } from 'node:path';
import { homedir } from 'node:os';
import { prettifyError } from 'zod/mini';
import type { Settings } from '../../engine';
import { defaultSettings, knownZone } from '../../engine';
import { keepAside } from './quarantine';
import type { HostConfig, SettingsFile } from './schema';
import { DEFAULT_SHORTCUT, SETTINGS_VERSION, settingsSchema } from './schema';

export interface LoadedSettings {
  settings: Settings;
  /** Provider roots chosen in the settings (override the environment's defaults). */
  roots: Record<string, string>;
  /** Other machines, over ssh (issue 13). */
  hosts: HostConfig[];
  /** The tray app's global key, or null for none (issue 15). */
  shortcut: string | null;
  problems: string[];
}

/** Settings with the file's values laid over the defaults. */
function applySettings(file: SettingsFile): Settings {
  const base = defaultSettings();
  return {
    timings: { ...base.timings, ...file.timings },
    notifications: { ...base.notifications, ...file.notifications },
    openCommand: file.openCommand,
    rules:
      file.rules === undefined
        ? base.rules
        : file.rules.map((rule) =>
            rule.when.folder?.startsWith('~/') === true ? { ...rule, when: { ...rule.when, folder: join(homedir(), rule.when.folder.slice(2)) } } : rule,
          ),
    quietHours: file.quietHours,
  };
}

export function settingsPath(home: string): string {
  return join(home, 'settings.json');
}

export function loadSettings(home: string, now: number): LoadedSettings {
  const path = settingsPath(home);
  if (!existsSync(path)) return { settings: defaultSettings(), roots: {}, hosts: [], shortcut: DEFAULT_SHORTCUT, problems: [] };
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    return setAside(path, `it is not valid JSON (${error instanceof Error ? error.message : String(error)})`, now);
  }
  const version = (raw as { schemaVersion?: unknown } | null)?.schemaVersion;
  if (typeof version === 'number' && version > SETTINGS_VERSION) return setAside(path, `it was written by a newer Lookout (schema ${version})`, now);
  const parsed = settingsSchema.safeParse(raw);
  if (!parsed.success) return setAside(path, prettifyError(parsed.error).replace(/\s*\n\s*/g, ' '), now);
  const settings = applySettings(parsed.data);
  const zone = settings.quietHours?.timeZone ?? null;
  const problems: string[] = [];
  // One field this runtime cannot use falls back alone; the file stays as written (issue 25 item 14).
  if (settings.quietHours !== null && zone !== null && !knownZone(zone)) {
    settings.quietHours = { ...settings.quietHours, timeZone: null };
    if (warnOnce(`${path}\0${zone}`))
      problems.push(
        `lookout: ${path}: quietHours.timeZone "${zone}" is not a time zone this system knows; quiet hours follow this machine's clock (the file is left as written)`,
      );
  }
  return { settings, roots: parsed.data.roots, hosts: parsed.data.hosts, shortcut: parsed.data.shortcut, problems };
}

/** A runtime reloads its settings at every change of the store: a field's fallback is told once per process. */
const warned = new Set<string>();
function warnOnce(what: string): boolean {
  if (warned.has(what)) return false;
  warned.add(what);
  return true;
}

/**
 * settings.json's `answerFromBrowser`, read without side effects (a bad file is the runtime's to
 * set aside): false unless the file says true, so a file that cannot be read never turns it on.
 */
export function answerFromBrowser(home: string): boolean {
  try {
    const parsed = settingsSchema.safeParse(JSON.parse(readFileSync(settingsPath(home), 'utf8')));
    return parsed.success && parsed.data.answerFromBrowser;
  } catch {
    return false;
  }
}

function setAside(path: string, why: string, now: number): LoadedSettings {
  const aside = keepAside(path, now);
  return {
    settings: defaultSettings(),
    roots: {},
    hosts: [],
    shortcut: DEFAULT_SHORTCUT,
    problems: [`lookout: ${path} could not be used (${why}); kept aside as ${aside}, using defaults`],
  };
}

/**
 * Changes settings.json through `change`, keeping every field it does not touch as written (a
 * rule's "~/" folder stays so). Read, change and write happen under a lock across processes, and
 * `change` sees the file as read under it: two writers (commands, the app) lose nothing. A file
 * that cannot be used is kept aside first, as on load; its problem lines are returned. What
 * `change` throws (a name taken meanwhile) leaves the file as it was.
 */
export function updateSettings(home: string, now: number, change: (file: SettingsFile) => SettingsFile): string[] {
  privateFolder(home);
  return withLock(join(home, '.settings.lock'), () => {
    const { file, problems } = readSettingsFile(home, now);
    saveSettings(home, change(file));
    return problems;
  });
}

/** settings.json as written (defaults filled in, nothing expanded); a bad one kept aside, as on load. */
export function readSettingsFile(home: string, now: number): { file: SettingsFile; problems: string[] } {
  const { problems } = loadSettings(home, now);
  try {
    const parsed = settingsSchema.safeParse(JSON.parse(readFileSync(settingsPath(home), 'utf8')));
    if (parsed.success) return { file: parsed.data, problems };
  } catch {
    // Absent, or just kept aside: the defaults.
  }
  return { file: settingsSchema.parse({}), problems };
}

/** Writes settings atomically (a temp file renamed over the old one), private (0600). */
function saveSettings(home: string, file: SettingsFile): void {
  writePrivate(settingsPath(home), `${JSON.stringify(settingsSchema.parse(file), null, 2)}\n`);
}
