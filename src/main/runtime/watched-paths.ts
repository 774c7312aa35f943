// What the runtime watches, and what a set of changed paths is: Lookout's own facts (the store,
// the settings), or provider evidence (an agent's files, the hooks' spool, the answer channel's
// requests). Lookout's own folder is otherwise never evidence (its lock, its temporary files).
import { existsSync } from 'node:fs';
import { sep } from 'node:path';
import type { ProviderRoots } from '../../providers';
import { PROVIDERS } from '../../providers';
import type { WatchTarget } from '../../providers/descriptor';
import { requestsPath, runFolder } from '../answer/paths';
import { settingsPath } from '../store/settings-store';

export interface WatchedPlaces {
  roots: ProviderRoots;
  /** Lookout's home, its store file and its spool folder. */
  home: string;
  storePath: string;
  spoolFolder: string;
}

/** Folders to watch: each provider's, Lookout's home and spool; only those that exist (a fresh machine may have none yet). */
export function watchTargets(places: WatchedPlaces): WatchTarget[] {
  const wanted: WatchTarget[] = [
    ...PROVIDERS.flatMap((provider) => provider.watch(places.roots[provider.id] ?? '')),
    // Lookout's own facts (store.json, settings.json) and the hooks' spool.
    { path: places.home, depth: 0, files: /\.json$/ },
    { path: places.spoolFolder, depth: 0, files: /\.jsonl(\.1)?$/ },
    // The prompts the answer channel's owner holds (another Lookout process may own it).
    { path: runFolder(places.home), depth: 0, files: /[\\/]requests\.json$/ },
  ];
  return wanted.filter((target) => target.path !== '' && existsSync(target.path));
}

/** The changed paths that are Lookout's own facts, and those that are provider evidence. */
export function sortChanged(paths: ReadonlySet<string>, places: WatchedPlaces): { own: Set<string>; provider: Set<string> } {
  const settings = settingsPath(places.home);
  const own = new Set([...paths].filter((path) => path === places.storePath || path === settings));
  const home = `${places.home}${sep}`;
  const spool = `${places.spoolFolder}${sep}`;
  const requests = requestsPath(places.home);
  const provider = new Set([...paths].filter((path) => path.startsWith(spool) || path === requests || (!path.startsWith(home) && path !== places.home)));
  return { own, provider };
}
