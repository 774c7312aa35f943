// A scenario's own temporary home: the agent's folders, Lookout's, a project folder, and the
// environment both run with (nothing of the machine's real home is read or written).
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export class LabHome {
  readonly root: string;
  readonly home: string;
  readonly project: string;
  readonly lookoutHome: string;
  readonly tmp: string;

  constructor(name: string) {
    // realpath: agents key projects by their real path (/tmp may be a link elsewhere).
    this.root = realpathSync(mkdtempSync(join(tmpdir(), `lookout-lab-${name}-`)));
    this.home = join(this.root, 'home');
    this.project = join(this.home, 'project');
    this.lookoutHome = join(this.home, '.lookout');
    this.tmp = join(this.root, 'tmp');
    for (const folder of [this.home, this.project, this.tmp]) mkdirSync(folder, { recursive: true });
  }

  /** What every process of the scenario sees: the lab's home, no user configuration, loopback only. */
  baseEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
    return {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: this.home,
      USER: process.env.USER ?? 'lab',
      TERM: 'xterm-256color',
      LANG: 'C.UTF-8',
      TMPDIR: this.tmp,
      XDG_CONFIG_HOME: join(this.home, '.config'),
      XDG_DATA_HOME: join(this.home, '.local', 'share'),
      XDG_STATE_HOME: join(this.home, '.local', 'state'),
      XDG_CACHE_HOME: join(this.home, '.cache'),
      LOOKOUT_HOME: this.lookoutHome,
      NO_PROXY: '127.0.0.1,localhost',
      ...extra,
    };
  }

  remove(): void {
    rmSync(this.root, { recursive: true, force: true, maxRetries: 3 });
  }
}
