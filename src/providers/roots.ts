// Where each agent keeps its files, in the agent's own order (docs/providers.md, "Folders"): its
// variables, then the folder chosen in Lookout's settings, then XDG, then the home default; and
// the folders inside it that a variable of the agent's own moves elsewhere. `doctor` says which won.
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { ProviderDescriptor } from './descriptor';

export type RootSource = 'variable' | 'settings' | 'xdg' | 'default';

export interface RootChoice {
  path: string;
  source: RootSource;
  /** The variable that set the folder (the agent's own, or XDG_DATA_HOME), or null (settings, default). */
  variable: string | null;
  /** How, as a person reads it: `NAME=/x`, `settings.json roots.<id>`, `default; NAME not set`. */
  from: string;
}

type Root = ProviderDescriptor['root'];
type Env = Readonly<Record<string, string | undefined>>;

const nonEmpty = (value: string | undefined): string | null => (value === undefined || value.trim() === '' ? null : value.trim());

/** A variable's folder as the agent reads it: a leading `~` is the home for agents that expand it (Qwen). */
function folderOf(root: Root, value: string, env: Env): string {
  if (root.expandsTilde !== true || (value !== '~' && !value.startsWith('~/'))) return value;
  return join(env.HOME ?? homedir(), value.slice(2));
}

/** The agent's variables for its folder, in its own order: the first that is set wins. */
function fromVariables(root: Root, env: Env): RootChoice | null {
  const variables = [{ env: root.env, subfolder: root.envSubfolder }, ...(root.alsoEnv ?? [])];
  const skipped: string[] = [];
  for (const variable of variables) {
    const value = nonEmpty(env[variable.env]);
    if (value === null) {
      skipped.push(variable.env);
      continue;
    }
    const base = folderOf(root, value, env);
    const path = variable.subfolder === undefined ? base : join(base, variable.subfolder);
    const unset = skipped.length === 0 ? '' : `; ${skipped.join(', ')} not set`;
    return {
      path,
      source: 'variable',
      variable: variable.env,
      from: `${variable.env}=${value}${variable.subfolder === undefined ? '' : ` (its ${variable.subfolder})`}${unset}`,
    };
  }
  return null;
}

/** The variables the agent reads for its folder, in its order (for "not set" lines). */
export function rootVariables(root: Root): string[] {
  return [root.env, ...(root.alsoEnv ?? []).map((item) => item.env)];
}

/** One agent's folder and what chose it. */
export function chooseRoot(provider: ProviderDescriptor, env: Env, chosen: Readonly<Record<string, string | undefined>> = {}): RootChoice {
  const own = fromVariables(provider.root, env);
  if (own !== null) return own;
  const unset = rootVariables(provider.root).join(', ');
  const picked = nonEmpty(chosen[provider.id]);
  if (picked !== null) return { path: picked, source: 'settings', variable: null, from: `settings.json roots.${provider.id}` };
  const xdg = nonEmpty(env.XDG_DATA_HOME);
  const xdgFolder = provider.root.xdgDataFolder;
  if (xdgFolder !== undefined && xdg !== null)
    return { path: join(xdg, xdgFolder), source: 'xdg', variable: 'XDG_DATA_HOME', from: `XDG_DATA_HOME=${xdg} (its ${xdgFolder}; ${unset} not set)` };
  return { path: join(env.HOME ?? homedir(), provider.root.defaultFolder), source: 'default', variable: null, from: `default; ${unset} not set` };
}

export interface PartChoice {
  /** The folder's name inside the root ("db", "sessions", "projects"). */
  folder: string;
  path: string;
  /** The variable that moved it, or null (inside the root). */
  variable: string | null;
}

/** The folders inside the root that a variable of the agent's own moves elsewhere. */
export function chooseParts(root: Root, rootPath: string, env: Env): PartChoice[] {
  return (root.parts ?? []).map((part) => {
    const value = nonEmpty(env[part.env]);
    if (value === null) return { folder: part.folder, path: join(rootPath, part.folder), variable: null };
    const base = folderOf(root, value, env);
    return { folder: part.folder, path: part.subfolder === undefined ? base : join(base, part.subfolder), variable: part.env };
  });
}

/** One part's folder: where the agent's variable put it, else inside the root. */
export function partFolder(root: Root, rootPath: string, folder: string, env: Env = process.env): string {
  return chooseParts(root, rootPath, env).find((part) => part.folder === folder)?.path ?? join(rootPath, folder);
}
