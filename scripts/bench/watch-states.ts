// Follows `lookout watch --json` as a child process: the newest state of every row, and waiters
// that resolve when a row reaches a state (for latency figures).
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { spawn } from 'node:child_process';

export class WatchStates {
  readonly child: ChildProcessWithoutNullStreams;
  states = new Map<string, string>();
  private buffer = '';
  private readonly waiters: { key: string; state: string; resolve: () => void }[] = [];

  constructor(cli: string, env: NodeJS.ProcessEnv) {
    this.child = spawn(process.execPath, [cli, 'watch', '--json', '--all'], { env });
    this.child.stderr.pipe(process.stderr);
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (text: string) => this.take(text));
  }

  private take(text: string): void {
    this.buffer += text;
    for (let newline = this.buffer.indexOf('\n'); newline !== -1; newline = this.buffer.indexOf('\n')) {
      const snapshot = JSON.parse(this.buffer.slice(0, newline)) as { sessions: { key: string; observed: { state: string } }[] };
      this.buffer = this.buffer.slice(newline + 1);
      this.states = new Map(snapshot.sessions.map((row) => [row.key, row.observed.state]));
      for (const waiter of this.waiters.splice(0)) {
        if (this.states.get(waiter.key) === waiter.state) waiter.resolve();
        else this.waiters.push(waiter);
      }
    }
  }

  /** Resolves when the row `key` is in `state` (in a snapshot still to come). */
  reaches(key: string, state: string): Promise<void> {
    return new Promise((resolve) => this.waiters.push({ key, state, resolve }));
  }
}
