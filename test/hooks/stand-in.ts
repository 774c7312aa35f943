// A stand-in for an agent that records no pid (Gemini CLI, Droid): a Node process whose program
// bears the agent's name, running in the session's folder, so Lookout's /proc look finds it.
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export class StandIns {
  private readonly started: ChildProcess[] = [];

  constructor(private readonly base: string) {}

  /** Starts `name` (e.g. `gemini.js`, `droid`) in `project`; resolves once it runs. */
  async start(project: string, name: string): Promise<void> {
    const program = join(mkdtempSync(join(this.base, 'stand-in-')), name);
    writeFileSync(program, 'setInterval(() => {}, 1000);\n');
    const child = spawn(process.execPath, [program], { cwd: project, stdio: 'ignore' });
    this.started.push(child);
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', reject);
    });
  }

  /** Ends every stand-in started, by pid. */
  stop(): void {
    for (const child of this.started) if (child.pid !== undefined) process.kill(child.pid, 'SIGKILL');
  }
}
