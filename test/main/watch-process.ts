// Drives `lookout watch --json` as a real process: snapshots are read line by line.
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import type { Snapshot } from '../../src/engine';
import { CLI } from './cli-process';

export class WatchProcess {
  readonly child: ChildProcessWithoutNullStreams;
  readonly snapshots: Snapshot[] = [];
  stderr = '';
  private buffer = '';
  private waiters: { test: (snapshot: Snapshot) => boolean; resolve: (snapshot: Snapshot) => void }[] = [];

  constructor(args: string[], env: Record<string, string>, cli = CLI) {
    this.child = spawn(process.execPath, [cli, 'watch', '--json', ...args], { env: { PATH: process.env.PATH ?? '', ...env } });
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (text: string) => this.take(text));
    this.child.stderr.on('data', (text: Buffer) => {
      this.stderr += text.toString();
    });
  }

  private take(text: string): void {
    this.buffer += text;
    let newline = this.buffer.indexOf('\n');
    while (newline !== -1) {
      const line = this.buffer.slice(0, newline);
      this.buffer = this.buffer.slice(newline + 1);
      const snapshot = JSON.parse(line) as Snapshot;
      this.snapshots.push(snapshot);
      this.waiters = this.waiters.filter((waiter) => {
        if (!waiter.test(snapshot)) return true;
        waiter.resolve(snapshot);
        return false;
      });
      newline = this.buffer.indexOf('\n');
    }
  }

  /** The first snapshot (already seen or still to come) that passes the test. */
  until(test: (snapshot: Snapshot) => boolean, timeoutMs = 20_000): Promise<Snapshot> {
    const seen = this.snapshots.find(test);
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new Error(
              `no matching snapshot in ${timeoutMs} ms; last: ${JSON.stringify(this.snapshots.at(-1)?.sessions.map((row) => [row.key, row.observed.state, row.observed.reason]))}; stderr: ${this.stderr}`,
            ),
          ),
        timeoutMs,
      );
      this.waiters.push({
        test,
        resolve: (snapshot) => {
          clearTimeout(timer);
          resolve(snapshot);
        },
      });
    });
  }

  /** Sends SIGINT and resolves with the exit code and how long the exit took. */
  stop(): Promise<{ code: number | null; ms: number }> {
    const started = Date.now();
    return new Promise((resolve) => {
      this.child.once('exit', (code) => resolve({ code, ms: Date.now() - started }));
      this.child.kill('SIGINT');
    });
  }
}
