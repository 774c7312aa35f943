// Each agent of the registry as `doctor` reports it: its folder, what chose it, whether it is
// there, its sessions and its hooks (as `lookout hooks status` sees them).
import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { ProviderDescriptor, ProviderRoots } from '../../providers';
import { PROVIDERS } from '../../providers';
import { chooseParts, chooseRoot } from '../../providers/roots';
import type { HookContext } from '../hooks/installer';
import { status } from '../hooks/installer';
import type { AgentHooks, AgentReport, HooksState, RootSource } from './report';

/** Which step of resolveRoots' order chose the folder (the very function: variables, settings, XDG, default). */
function rootSource(
  provider: ProviderDescriptor,
  env: NodeJS.ProcessEnv,
  chosen: Readonly<Record<string, string | undefined>>,
): { source: RootSource; variable: string | null; from: string } {
  const { source, variable, from } = chooseRoot(provider, env, chosen);
  return { source, variable, from };
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** What a line of `hooks status` says of one file: yes, no, not Lookout's to count, or unknown. */
export type Mark = 'yes' | 'no' | 'partly' | 'old' | 'neutral' | 'unknown';

export function hookMark(line: string): Mark {
  if (line.startsWith('installed, out of date')) return 'old';
  if (line.startsWith('installed')) return 'yes';
  if (line.startsWith('partly installed')) return 'partly';
  if (line.startsWith('unknown')) return 'unknown';
  // A hooks file that cannot be parsed reads "not installed in <file> (<why>)".
  if (/^not installed in .+ \(.+\)$/.test(line)) return 'unknown';
  if (line.startsWith('not installed')) return 'no';
  if (line === "notify: Lookout's") return 'yes';
  if (line.startsWith('notify: unknown')) return 'unknown';
  // The user's own notify program is left alone by install: it counts neither way.
  if (line.startsWith('notify: your own')) return 'neutral';
  if (line.startsWith('notify: not set')) return 'no';
  return 'unknown';
}

function stateOf(marks: readonly Mark[]): HooksState {
  const counted = marks.filter((item) => item !== 'neutral');
  if (counted.includes('unknown')) return 'unknown';
  if (counted.includes('old')) return 'out of date';
  if (counted.length > 0 && counted.every((item) => item === 'yes')) return 'installed';
  if (counted.every((item) => item === 'no')) return 'not installed';
  return 'partly installed';
}

/** The lines `hooks status` adds after the files (what answering and the hooks add), left out here. */
const DESCRIPTIONS = ['answering from Lookout:', 'without hooks Lookout sees:', 'with hooks it also sees:'];

/** One agent's hooks, from the very function `lookout hooks status` prints. */
function agentHooks(context: HookContext, provider: ProviderDescriptor): AgentHooks | null {
  if (provider.hooks === null) return null;
  let lines: string[];
  try {
    lines = status(context, [provider]).lines;
  } catch (error) {
    return { state: 'unknown', lines: [error instanceof Error ? error.message : String(error)] };
  }
  const files = lines
    .map((line) => (line.startsWith(`${provider.id}: `) ? line.slice(provider.id.length + 2) : line).trim())
    .filter((line) => !DESCRIPTIONS.some((start) => line.startsWith(start)));
  return { state: stateOf(files.map(hookMark)), lines: files };
}

export interface AgentInputs {
  env: NodeJS.ProcessEnv;
  /** settings.json's `roots`. */
  chosen: Readonly<Record<string, string | undefined>>;
  home: string;
  now: number;
  /** Sessions per agent id, where they were counted. */
  sessions: Readonly<Record<string, number>>;
}

export function agentReports(inputs: AgentInputs, roots: ProviderRoots): AgentReport[] {
  // The context `lookout hooks status` builds; `cli` is the bundle beside this code (dist/cli.cjs).
  const context: HookContext = { home: inputs.home, roots, platform: process.platform, cli: join(__dirname, 'cli.cjs'), now: inputs.now, env: inputs.env };
  return PROVIDERS.map((provider) => {
    const folder = roots[provider.id] ?? join(inputs.env.HOME ?? homedir(), provider.root.defaultFolder);
    const found = isFolder(folder);
    return {
      id: provider.id,
      name: provider.name,
      folder,
      ...rootSource(provider, inputs.env, inputs.chosen),
      // The folders inside it that the agent's own variables moved (Cline's CLINE_DB_DATA_DIR), each with its variable.
      parts: chooseParts(provider.root, folder, inputs.env),
      found,
      sessions: found ? (inputs.sessions[provider.id] ?? 0) : null,
      hooks: agentHooks(context, provider),
    };
  });
}
