// Everything a command needs to evaluate: roots, user facts, settings, and what went wrong loading them.
import { rootsFromEnv } from '../providers/roots';
import type { ProviderRoots } from '../providers/roots';
import type { Settings, UserFacts } from '../engine';
import { FactStore, toFacts } from './store/facts-store';
import { lookoutHome } from './store/home';
import { loadSettings } from './store/settings-store';

export interface RuntimeState {
  home: string;
  store: FactStore;
  facts: UserFacts;
  settings: Settings;
  roots: ProviderRoots;
  problems: string[];
}

export function loadState(now: number, env: NodeJS.ProcessEnv = process.env): RuntimeState {
  const home = lookoutHome(env);
  const store = new FactStore(home);
  const loaded = store.read(now);
  const settings = loadSettings(home, now);
  const fromEnv = rootsFromEnv(env);
  // The agents' own variables win; then the settings; then the defaults.
  const roots: ProviderRoots = {
    claude: env.CLAUDE_CONFIG_DIR !== undefined && env.CLAUDE_CONFIG_DIR !== '' ? fromEnv.claude : (settings.roots.claude ?? fromEnv.claude),
    codex: env.CODEX_HOME !== undefined && env.CODEX_HOME !== '' ? fromEnv.codex : (settings.roots.codex ?? fromEnv.codex),
  };
  return { home, store, facts: toFacts(loaded.file), settings: settings.settings, roots, problems: [...loaded.problems, ...settings.problems] };
}
