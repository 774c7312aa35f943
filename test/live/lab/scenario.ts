// One scenario: a fake model with its script, a temporary home, the real agent in tmux, and
// Lookout asked what it sees. Everything it starts it ends, by pid or by its own tmux server.
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentLab } from './agents/agent';
import { LAB_MODULES } from './agents/installed';
import { FakeModel } from './fake-model';
import { LabHome } from './home';
import type { LabRow, LabSnapshot } from './lookout';
import { CLI, describeRows, lookout, status } from './lookout';
import type { Reply } from './script';
import { Script } from './script';
import { Tmux } from './tmux';
import { record } from './record';
import { noteInventory } from './inventory';
import { waitFor } from '../../wait';

export { LAB_MODULES };

export interface ScenarioOptions {
  name: string;
  replies: readonly Reply[];
  /** Lookout's hooks installed for this agent before it starts. */
  hooks?: boolean;
  /** Opt-in answering asked for at install (`hooks install --answer <agent>`). */
  answer?: boolean;
  /** A running Lookout (`lookout watch`) holding the answer channel, started before the agent. */
  watch?: boolean;
  /** Options added to that `lookout watch` (`--phone`). */
  watchArgs?: readonly string[];
  /** Set-up done with Lookout's own commands before the background Lookout starts (a phone channel). */
  beforeWatch?: (env: NodeJS.ProcessEnv) => void;
  /** Arguments added after the agent's own (a mode the scenario starts it in). */
  args?: readonly string[];
}

export class Scenario {
  readonly model: FakeModel;
  readonly home: LabHome;
  readonly tmux: Tmux;
  readonly agentEnv: NodeJS.ProcessEnv;
  readonly lookoutEnv: NodeJS.ProcessEnv;
  private lastSnapshot: LabSnapshot | null = null;
  private watcher: ChildProcess | null = null;

  private constructor(
    readonly agent: AgentLab,
    readonly options: ScenarioOptions,
    model: FakeModel,
  ) {
    this.model = model;
    this.home = new LabHome(`${agent.id}-${options.name}`);
    const own = agent.prepare(this.home, model);
    this.agentEnv = this.home.baseEnv(own);
    // Lookout reads the agent's folders through the same variables the agent was given.
    this.lookoutEnv = this.home.baseEnv(Object.fromEntries(Object.entries(own).filter(([key]) => /_(DIR|HOME)$/.test(key))));
    this.tmux = new Tmux(`lookout-lab-${agent.id}-${options.name}-${process.pid}`, this.agentEnv);
  }

  static async start(agent: AgentLab, options: ScenarioOptions): Promise<Scenario> {
    const model = await new FakeModel(new Script(options.replies)).start();
    const scenario = new Scenario(agent, options, model);
    try {
      if (options.hooks === true) scenario.installHooks();
      options.beforeWatch?.(scenario.lookoutEnv);
      if (options.watch === true) await scenario.startWatch();
      await scenario.launch();
    } catch (error) {
      await scenario.end();
      throw error;
    }
    return scenario;
  }

  /** `lookout watch` in the background, until the answer channel is up (its owner file written). */
  async startWatch(): Promise<void> {
    const child = spawn(process.execPath, [CLI, 'watch', '--json', ...(this.options.watchArgs ?? [])], {
      env: this.lookoutEnv,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    this.watcher = child;
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const owner = join(this.home.lookoutHome, 'run', 'answer.pid');
    await waitFor(
      'lookout watch holding the answer channel',
      () => (existsSync(owner) && readFileSync(owner, 'utf8').trim() === String(child.pid) ? true : undefined),
      () => stderr,
    );
  }

  /** Stops the background Lookout the way a user does (Ctrl-C), and waits until it is gone. */
  async stopWatch(): Promise<void> {
    const child = this.watcher;
    this.watcher = null;
    if (child === null || child.exitCode !== null) return;
    const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGINT');
    await gone;
  }

  /** `lookout answer <this row> …`, as a person types it. */
  answer(row: LabRow, ...args: string[]): { code: number | null; stdout: string; stderr: string } {
    return lookout(['answer', row.key, ...args], this.lookoutEnv);
  }

  private installHooks(): void {
    const answer = this.options.answer === true ? ['--answer', this.agent.id] : [];
    const result = lookout(['hooks', 'install', '--provider', this.agent.id, ...answer], this.lookoutEnv);
    if (result.code !== 0) throw new Error(`lookout hooks install: ${result.stdout}${result.stderr}`);
  }

  /** Starts the TUI and waits for its prompt box, dismissing known start-up dialogs on the way. */
  private async launch(): Promise<void> {
    const binary = this.agent.binary(LAB_MODULES);
    if (binary === null) throw new Error(`${this.agent.id} is not installed under ${LAB_MODULES} (npm install in test/live)`);
    // A headless agent has no prompt box to wait for: its run starts with the prompt.
    if (this.agent.headless !== undefined) return;
    this.tmux.start(this.home.project, [binary, ...this.agent.args, ...(this.options.args ?? [])]);
    let pending = this.agent.expectedDialog?.(this.options.hooks === true) ?? null;
    await waitFor(
      `${this.agent.id} ready`,
      () => {
        const screen = this.tmux.screen();
        const keys = this.agent.dismiss(screen);
        if (keys !== null) {
          if (pending !== null && screen.includes(pending)) pending = null;
          this.tmux.keys(...keys);
          return undefined;
        }
        return pending === null && this.agent.ready(screen) ? true : undefined;
      },
      () => this.tmux.screen(),
    );
  }

  /**
   * Types a prompt and sends it once the text is seen in the box. A TUI that drops keys while it
   * settles (Codex, its first seconds) is typed to again.
   */
  async prompt(text: string): Promise<void> {
    const binary = this.agent.binary(LAB_MODULES);
    if (this.agent.headless !== undefined && binary !== null) {
      this.tmux.start(this.home.project, [binary, ...this.agent.headless(text), ...(this.options.args ?? [])]);
      return;
    }
    await waitFor(
      `the prompt "${text}" typed`,
      async () => {
        const keys = this.agent.dismiss(this.tmux.screen());
        if (keys !== null) this.tmux.keys(...keys);
        this.tmux.type(text);
        try {
          return await this.tmux.waitForScreen(`the prompt "${text}" shown`, (screen) => screen.includes(text), 5_000);
        } catch {
          // Dropped: clear whatever part of it landed, then type again.
          this.tmux.keys('C-u');
          return undefined;
        }
      },
      () => this.tmux.screen(),
    );
    const asked = () => this.model.requests.filter((request) => request.role !== 'other').length;
    const before = asked();
    this.tmux.keys('Enter');
    // A TUI on a loaded machine may drop the Enter too: pressed again while the model has heard
    // nothing (an empty Enter in a box already sent is nothing to these TUIs). Not an assertion:
    // the scenario's own waits say what went wrong.
    for (let tries = 0; tries < 3; tries += 1) {
      const heard = await waitFor(
        `the prompt "${text}" sent`,
        () => (asked() > before ? true : undefined),
        () => '',
        { timeout: 15_000 },
      ).catch(() => false);
      if (heard) return;
      this.tmux.keys('Enter');
    }
  }

  /** The rows of this agent now (a scenario's home holds only its own sessions). */
  rows(): LabRow[] {
    this.lastSnapshot = status(this.lookoutEnv);
    return this.lastSnapshot.sessions.filter((row) => row.provider === this.agent.id);
  }

  /**
   * Waits until this agent has exactly one row and it satisfies `test`; returns it. Two rows for
   * one session (a phantom) fail at once.
   */
  async expectRow(what: string, test: (row: LabRow) => boolean, timeout = 90_000): Promise<LabRow> {
    return waitFor(
      what,
      () => {
        const rows = this.rows();
        if (rows.length > 1) throw new Error(`expected one ${this.agent.id} row, saw ${rows.length}:\n${describeRows({ now: '', sessions: rows })}`);
        const row = rows[0];
        return row !== undefined && test(row) ? row : undefined;
      },
      () => `${this.lastSnapshot === null ? '(no snapshot)' : describeRows(this.lastSnapshot)}\n--- screen ---\n${this.tmux.screen()}`,
      { timeout },
    );
  }

  /** Keeps this moment's files as a fast-suite fixture (when LOOKOUT_LAB_RECORD is set). */
  record(name: string, shows: string, row: LabRow): void {
    record(this, name, shows, row, this.lastSnapshot?.now ?? new Date().toISOString());
  }

  /** `lookout explain` of the one row, for failure messages and checks. */
  explain(row: LabRow): string {
    return lookout(['explain', row.key], this.lookoutEnv).stdout;
  }

  /** Waits until the agent's request is held open by the model (the turn is really under way). */
  async held(count = 1, timeout?: number): Promise<void> {
    await waitFor(
      count === 1 ? 'a model stream held open' : `${count} model streams held open`,
      () => (this.model.openHolds >= count ? true : undefined),
      () => this.tmux.screen(),
      timeout === undefined ? {} : { timeout },
    );
  }

  /** Ends the held stream normally, once there is one. */
  async releaseHold(count = 1): Promise<void> {
    await this.held(count);
    this.model.release();
  }

  /** Approves the permission prompt on screen, pressing again if a key was dropped. */
  async approve(): Promise<void> {
    await waitFor(
      'the permission prompt answered',
      async () => {
        if (!this.agent.asksPermission(this.tmux.screen())) return true;
        this.tmux.keys(...this.agent.approveKeys);
        try {
          return await this.tmux.waitForScreen('the prompt gone', (screen) => !this.agent.asksPermission(screen), 5_000).then(() => true);
        } catch {
          return undefined;
        }
      },
      () => this.tmux.screen(),
    );
  }

  /** Every process of this scenario: the agent and whatever it left running (its daemons, updaters). */
  processes(): number[] {
    const marker = `LOOKOUT_HOME=${this.home.lookoutHome}\0`;
    const pids = new Set<number>(this.agent.daemonPids(this.home));
    if (!this.tmux.paneDead()) pids.add(this.tmux.panePid());
    for (const name of safeList('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      try {
        if (readFileSync(`/proc/${name}/environ`, 'latin1').includes(marker)) pids.add(Number(name));
      } catch {
        // Gone, or not ours to read.
      }
    }
    pids.delete(process.pid);
    return [...pids];
  }

  /** kill -9 the agent and every process it started: no exit handler runs. */
  kill9(): void {
    const server = this.tmux.serverPid();
    for (const pid of this.processes()) if (pid !== server) signal(pid, 'SIGKILL');
  }

  async end(): Promise<void> {
    try {
      noteInventory(this);
    } catch (error) {
      // The inventory is a report: a scenario still ends whatever it met.
      console.warn(`live lab: no inventory for ${this.options.name}: ${String(error)}`);
    }
    await this.stopWatch().catch(() => undefined);
    const pids = this.processes();
    for (const pid of pids) signal(pid, 'SIGKILL');
    this.tmux.kill();
    await this.model.stop();
    // The agent may still be writing its files as it dies: its home goes once it has.
    await waitFor(
      'the agent gone',
      () => (pids.every((pid) => !signal(pid, 0)) ? true : undefined),
      () => pids.join(' '),
      { timeout: 30_000 },
    );
    if (process.env.LOOKOUT_LAB_KEEP === undefined) this.home.remove();
    else console.warn(`live lab: kept ${this.home.root}`);
  }

  get projectFile(): (name: string) => string {
    return (name) => join(this.home.project, name);
  }
}

/** Sends a signal to a pid the scenario started; says whether the process was there. */
function signal(pid: number, name: NodeJS.Signals | 0): boolean {
  try {
    process.kill(pid, name);
    return true;
  } catch {
    return false;
  }
}

function safeList(folder: string): string[] {
  try {
    return readdirSync(folder);
  } catch {
    return [];
  }
}
