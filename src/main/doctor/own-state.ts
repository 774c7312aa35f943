// Lookout's own state for `doctor`: LOOKOUT_HOME, and settings.json and store.json loaded the way
// every command loads them (a bad file is kept aside then, and said so here).
import { accessSync, constants, existsSync } from 'node:fs';
import { dirname } from 'node:path';
import type { UserFacts } from '../../engine';
import { defaultSettings } from '../../engine';
import { FactStore, toFacts } from '../store/facts-store';
import { lookoutHome } from '../store/home';
import type { LoadedSettings } from '../store/settings-store';
import { loadSettings, settingsPath } from '../store/settings-store';
import { DEFAULT_SHORTCUT, emptyStore } from '../store/schema';
import type { FileState, StateReport, StoredFile } from './report';

/** Whether the folder, or the nearest folder above it that exists, can be written (LOOKOUT_HOME is made on first write). */
function writable(folder: string): boolean {
  let at = folder;
  while (!existsSync(at) && dirname(at) !== at) at = dirname(at);
  try {
    accessSync(at, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

function fileState(existed: boolean, path: string, lines: readonly string[]): FileState {
  if (!existed) return 'absent';
  if (!existsSync(path)) return 'kept aside';
  return lines.length === 0 ? 'ok' : 'warning';
}

/** A line as the loaders write it for stderr, without their "lookout: " lead. */
const bare = (line: string): string => line.replace(/^lookout: /, '');

/** settings.json as every command loads it; one that cannot even be kept aside (a read-only folder) is said, with the defaults. */
function loadOrSay(home: string, now: number): LoadedSettings {
  try {
    return loadSettings(home, now);
  } catch (error) {
    return {
      settings: defaultSettings(),
      roots: {},
      hosts: [],
      shortcut: DEFAULT_SHORTCUT,
      problems: [`${settingsPath(home)} could not be used (${error instanceof Error ? error.message : String(error)}); using defaults`],
    };
  }
}

export interface OwnState {
  report: StateReport;
  settings: LoadedSettings;
  store: FactStore;
  facts: UserFacts;
}

export function ownState(env: NodeJS.ProcessEnv, now: number): OwnState {
  const home = lookoutHome(env);
  const settingsFile = settingsPath(home);
  const hadSettings = existsSync(settingsFile);
  const settings = loadOrSay(home, now);
  const store = new FactStore(home);
  const hadStore = existsSync(store.path);
  let facts: UserFacts = toFacts(emptyStore());
  let storeLines: string[] = [];
  try {
    const loaded = store.read(now);
    facts = toFacts(loaded.file);
    storeLines = loaded.problems.map(bare);
  } catch (error) {
    // An unreadable store (permissions) is a finding, not a crash.
    storeLines = [`${store.path} could not be read (${error instanceof Error ? error.message : String(error)})`];
  }
  const settingsLines = settings.problems.map(bare);
  const variable = (env.LOOKOUT_HOME ?? '').trim() === '' ? null : 'LOOKOUT_HOME';
  const stored = (path: string, existed: boolean, lines: string[]): StoredFile => ({ path, state: fileState(existed, path, lines), lines });
  return {
    report: {
      home,
      variable,
      exists: existsSync(home),
      writable: writable(home),
      settings: stored(settingsFile, hadSettings, settingsLines),
      store: stored(store.path, hadStore, storeLines),
    },
    settings,
    store,
    facts,
  };
}
