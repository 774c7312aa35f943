// One tmux server per scenario (`tmux -L <name>`): the agent runs in its real TUI, keys are sent
// and the screen read back. Ending the server ends only what the scenario started.
import { execFileSync, spawnSync } from 'node:child_process';
import { waitFor } from '../../wait';

export class Tmux {
  constructor(
    readonly socket: string,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  private run(args: string[]): string {
    return execFileSync('tmux', ['-L', this.socket, ...args], { encoding: 'utf8', env: this.env, stdio: ['ignore', 'pipe', 'pipe'] });
  }

  /** Starts the server with one window running `argv` directly (no shell) in `cwd`. */
  start(cwd: string, argv: readonly string[]): void {
    this.run(['-f', '/dev/null', 'new-session', '-d', '-s', 'lab', '-x', '160', '-y', '50', '-c', cwd, '--', ...argv]);
    // A pane whose program exits stays, so its last words can be read.
    this.run(['set-option', '-t', 'lab', 'remain-on-exit', 'on']);
  }

  /** The pane's text now. */
  screen(): string {
    try {
      return this.run(['capture-pane', '-p', '-t', 'lab', '-S', '-50']);
    } catch (error) {
      return `(no screen: ${String(error)})`;
    }
  }

  /** The pid of the program in the pane. */
  panePid(): number {
    return Number(this.run(['display-message', '-p', '-t', 'lab', '#{pane_pid}']).trim());
  }

  /** The tmux server's own pid (it reaps the agent; a kill of the agent leaves it). */
  serverPid(): number | null {
    try {
      return Number(this.run(['display-message', '-p', '#{pid}']).trim());
    } catch {
      return null;
    }
  }

  paneDead(): boolean {
    try {
      return this.run(['display-message', '-p', '-t', 'lab', '#{pane_dead}']).trim() === '1';
    } catch {
      return true;
    }
  }

  /** Literal text (no key names are interpreted). */
  type(text: string): void {
    this.run(['send-keys', '-t', 'lab', '-l', text]);
  }

  /** Key names: Enter, Escape, C-c, Down, … */
  keys(...keys: string[]): void {
    this.run(['send-keys', '-t', 'lab', ...keys]);
  }

  async waitForScreen(what: string, test: (screen: string) => boolean, timeout?: number): Promise<string> {
    return waitFor(
      `screen: ${what}`,
      () => {
        const screen = this.screen();
        return test(screen) ? screen : undefined;
      },
      () => this.screen(),
      { timeout },
    );
  }

  kill(): void {
    spawnSync('tmux', ['-L', this.socket, 'kill-server'], { env: this.env, stdio: 'ignore' });
  }
}
