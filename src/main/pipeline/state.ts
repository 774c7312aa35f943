// Everything a command needs to evaluate: roots, user facts, settings, and what went wrong loading them.
import type { Settings, UserFacts } from '../../engine';
import type { ProviderRoots } from '../../providers';
import { resolveRoots } from '../../providers';
import { FactStore, toFacts } from '../store/facts-store';
import { heldPath } from '../store/held-store';
import { lookoutHome } from '../store/home';
import type { HostConfig } from '../store/schema';
import { indexPath } from '../store/session-index-store';
import { loadSettings, settingsPath } from '../store/settings-store';
import { removeStaleTemps } from '../store/stale-temps';

export interface RuntimeState {
  home: string;
  store: FactStore;
  facts: UserFacts;
  settings: Settings;
  roots: ProviderRoots;
  /** Other machines whose sessions are shown too (settings.json `hosts`). */
  hosts: HostConfig[];
  /** The tray app's global key (settings.json `shortcut`), or null for none. */
  shortcut: string | null;
  problems: string[];
}

export function loadState(now: number, env: NodeJS.ProcessEnv = process.env): RuntimeState {
  const home = lookoutHome(env);
  const store = new FactStore(home);
  // A write killed before its rename left a temp file: Lookout's own stale ones go on start.
  removeStaleTemps([store.path, settingsPath(home), indexPath(home), heldPath(home)]);
  const loaded = store.read(now);
  const settings = loadSettings(home, now);
  // The agents' own variables win; then the settings; then the defaults.
  const roots = resolveRoots(env, settings.roots);
  return {
    home,
    store,
    facts: toFacts(loaded.file),
    settings: settings.settings,
    roots,
    hosts: settings.hosts,
    shortcut: settings.shortcut,
    problems: [...loaded.problems, ...settings.problems],
  };
}
