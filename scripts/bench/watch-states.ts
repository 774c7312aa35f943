// Follows `lookout watch --json` as a child process: the newest state of every row, and waiters
// that resolve when a row reaches a state (for latency figures), with the instant the line that
// showed it was whole: parsing a 1.2 MB line is this reader's cost, not the snapshot's.
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { spawn } from 'node:child_process';
import { defaultSettings } from '../../src/engine';
import { ownChild } from './interrupted';

type Line = { sessions: { key: string; observed: { state: string; at: string }; idleStale?: boolean; claim: { expiresAt: string | null } | null }[] };

/** After this long idle a row is shown dimmed (the default timing, as the bench's fresh home has it). */
const IDLE_STALE_AFTER = defaultSettings().timings.idleStaleAfter;

export class WatchStates {
  readonly child: ChildProcessWithoutNullStreams;
  /** When the process was started (wall clock), for a control that replays the same times (`--now`). */
  readonly startedAt = Date.now();
  states = new Map<string, string>();
  /** Snapshots read so far. */
  lines = 0;
  /** The latest end of a claim in the newest snapshot (ms; 0 with none): rows change by time alone until then. */
  claimsEndAt = 0;
  /** The latest instant a row of the newest snapshot changes by time alone: a claim's end, or an idle row dimmed (ms; 0 with none). */
  changesEndAt = 0;
  /** The unfinished line's pieces: each chunk is searched for a newline once (a pipe gives 64 KB at a time). */
  private parts: string[] = [];
  private readonly waiters: { key: string; state: string; resolve: (at: bigint) => void }[] = [];

  /** `now`: the clock starts there (a control replaying another watch's timed changes). */
  constructor(cli: string, env: NodeJS.ProcessEnv, now?: number) {
    this.child = spawn(process.execPath, [cli, 'watch', '--json', '--all', ...(now === undefined ? [] : ['--now', new Date(now).toISOString()])], { env });
    ownChild(this.child);
    this.child.stderr.pipe(process.stderr);
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (text: string) => this.take(text));
  }

  private take(text: string): void {
    for (let newline = text.indexOf('\n'); newline !== -1; newline = text.indexOf('\n')) {
      const at = process.hrtime.bigint();
      this.parts.push(text.slice(0, newline));
      text = text.slice(newline + 1);
      const snapshot = JSON.parse(this.parts.join('')) as Line;
      this.parts = [];
      this.lines += 1;
      this.states = new Map(snapshot.sessions.map((row) => [row.key, row.observed.state]));
      this.claimsEndAt = 0;
      this.changesEndAt = 0;
      for (const row of snapshot.sessions) {
        const ends = Date.parse(row.claim?.expiresAt ?? '') || 0;
        const dims = row.observed.state === 'idle' && row.idleStale === false ? Date.parse(row.observed.at) + IDLE_STALE_AFTER : 0;
        if (ends > this.claimsEndAt) this.claimsEndAt = ends;
        if (Math.max(ends, dims) > this.changesEndAt) this.changesEndAt = Math.max(ends, dims);
      }
      for (const waiter of this.waiters.splice(0)) {
        if (this.states.get(waiter.key) === waiter.state) waiter.resolve(at);
        else this.waiters.push(waiter);
      }
    }
    if (text !== '') this.parts.push(text);
  }

  /** Resolves, when the row `key` is in `state` in a snapshot still to come, with when that snapshot's line was whole. */
  reaches(key: string, state: string): Promise<bigint> {
    return new Promise((resolve) => this.waiters.push({ key, state, resolve }));
  }
}

/** Milliseconds from `t0` to the snapshot that showed the change, or to `timeoutMs` without one. */
export async function within(seen: Promise<bigint>, t0: bigint, timeoutMs: number): Promise<number> {
  const at = await Promise.race([seen, new Promise<bigint>((done) => setTimeout(() => done(process.hrtime.bigint()), timeoutMs))]);
  return Number(at - t0) / 1e6;
}
