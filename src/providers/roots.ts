// Where each agent keeps its files: the agents' own variables, else their defaults (cli.md).
import { homedir } from 'node:os';
import { join } from 'node:path';

export interface ProviderRoots {
  claude: string;
  codex: string;
}

export function rootsFromEnv(env: NodeJS.ProcessEnv = process.env): ProviderRoots {
  const home = env.HOME ?? homedir();
  return {
    claude: nonEmpty(env.CLAUDE_CONFIG_DIR) ?? join(home, '.claude'),
    codex: nonEmpty(env.CODEX_HOME) ?? join(home, '.codex'),
  };
}

function nonEmpty(value: string | undefined): string | null {
  return value === undefined || value.trim() === '' ? null : value;
}
