// LOOKOUT_HOME: where Lookout keeps its own state (cli.md), per platform.
import { homedir } from 'node:os';
import { join } from 'node:path';

export function lookoutHome(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.LOOKOUT_HOME !== undefined && env.LOOKOUT_HOME.trim() !== '') return env.LOOKOUT_HOME;
  const home = env.HOME ?? homedir();
  switch (platform) {
    case 'darwin':
      return join(home, 'Library', 'Application Support', 'Lookout');
    case 'win32':
      return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'Lookout');
    default:
      return join(env.XDG_CONFIG_HOME !== undefined && env.XDG_CONFIG_HOME !== '' ? env.XDG_CONFIG_HOME : join(home, '.config'), 'lookout');
  }
}

/** Where hooks leave their events: LOOKOUT_HOME/spool. */
export function spoolFolder(home: string): string {
  return join(home, 'spool');
}
