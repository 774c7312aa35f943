// One other machine, over one `ssh -T` connection running `lookout feed` there (issue 13). It
// keeps the host's last good snapshot, says how the link stands, reconnects with backoff (1 s
// doubling to 60 s), sends fact commands, and cuts off a host that sends anything but snapshots:
// a malformed or oversized line is one reported problem, and nothing of it is shown.
import { UNSAFE } from '../text/terminal-text';
import { oneLine } from '../../providers/jsonl/parse-record';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import type { HostStatus, HostView, Snapshot } from '../../engine';
import type { FeedCommand } from '../../engine/contract';
import { admit, feedSelfSchema, snapshotSchema } from '../../engine/contract';
import type { FeedSelf } from '../../engine/contract';
import { LOOKOUT_VERSION } from '../text/version';
import type { HostConfig } from '../store/schema';
import { remoteLookout, sshArgv } from './ssh-command';
import { refuseShape } from './line-shape';
import { FEED_PROTOCOLS, applyChanges, lineKind } from './feed-changes';
import { providerIds } from '../../providers';

/** A snapshot line longer than this is not one Lookout writes (3,000 rows take ~3 MB). */
const LINE_MAX_BYTES = 32 * 1024 * 1024;
const BACKOFF_FIRST_MS = 1000;
const BACKOFF_MAX_MS = 60_000;
/** A connection that stayed up this long was healthy: the next failure starts the backoff afresh. */
const HEALTHY_MS = 60_000;
/** Command ids this side sends (anything else a remote names is ignored). */
const COMMAND_ID = /^(ask|cmd|hello)-\d{1,10}-\d{1,16}$/;
/** Bounds on what a remote snapshot may hold: a key the popover can act on, a list a machine has. */
const ROW_KEY_MAX = 250;
const ROWS_MAX = 20_000;
/** ssh's own exit status for its failures; 127 is the remote shell's "command not found". */
const SSH_FAILED = 255;
const NOT_FOUND = 127;
/** Change lines in a row that fail to validate, with no good line between: the last of them cuts the link as any bad line does. */
const INVALID_CHANGES_MAX = 3;

export interface HostLinkOptions {
  clock: () => number;
  env: Readonly<Record<string, string | undefined>>;
  /** The ssh program (tests may name another). */
  ssh?: string;
  /** The feed protocols offered in the hello (the bench compares 1 with 2); all this Lookout reads by default. */
  protocols?: readonly number[];
  onChange: () => void;
  onProblem: (line: string) => void;
}

/** Control characters and the like out of a remote's words (the terminal's rule), on one line, before they reach a terminal or a page. */
function plain(text: string, max = 200): string {
  return oneLine(text.replace(UNSAFE, ' '), max);
}

/** Why ssh failed, in its own last words ("Permission denied (publickey).", "Connection refused"). */
function sshReason(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((line) => plain(line))
    .filter((line) => line !== '' && !line.startsWith('Warning: Permanently added'));
  // ssh says nothing when the far side's command dies by a signal, or the connection just drops.
  return lines.at(-1) ?? 'the connection ended without a word (its lookout feed killed, or the link dropped)';
}

/** Failures that will not mend by waiting: shown as "failed", not "unreachable" (both are retried). */
function permanent(reason: string): boolean {
  return /permission denied|host key verification failed|not found|could not resolve|bad configuration|not a snapshot|over \d+ bytes|newer lookout|cannot read/i.test(
    reason,
  );
}

export class HostLink {
  private child: ChildProcessWithoutNullStreams | null = null;
  private status: HostStatus;
  private snapshot: Snapshot | null = null;
  private receivedAt: number | null = null;
  private backoff = BACKOFF_FIRST_MS;
  private retry: NodeJS.Timeout | null = null;
  private stderr = '';
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Why the current connection was cut by Lookout itself (a bad line), if it was. */
  private cutReason: string | null = null;
  /** Cut off: nothing more it sends is read, until it is gone. */
  private cutting = false;
  private disposed = false;
  /** The last problem said for this host: a host down for hours is said once, not every retry. */
  private said: string | null = null;
  /** Commands answered by the host (their ids), with the reason when refused. */
  private readonly answers = new Map<string, string | null>();
  private asked = 0;
  /** Commands sent with `ask`, waiting for their answer line. */
  private readonly waiting = new Map<string, () => void>();
  /** Ids sent and not yet forgotten: the only answers taken. */
  private readonly expected = new Set<string>();
  /** The hello of the current connection, and what the feed said of itself (null: an older feed, silent). */
  private hello: string | null = null;
  private lookout: FeedSelf | null | undefined = undefined;
  /** Protocol 2: the number of the last line applied (null: full snapshots only), and the asks for a full one. */
  private seq: number | null = null;
  private resyncing = false;
  /** Change lines that did not validate since the last line applied (each one, not each resync asked). */
  private invalidChanges = 0;
  private resyncsTotal = 0;
  private linesRead = 0;
  private bytesRead = 0;

  constructor(
    readonly config: HostConfig,
    private readonly options: HostLinkOptions,
  ) {
    this.status = { kind: 'connecting', since: options.clock() };
  }

  get name(): string {
    return this.config.name;
  }

  view(): HostView {
    return { name: this.config.name, status: this.status, snapshot: this.snapshot, receivedAt: this.receivedAt, lookout: this.lookout };
  }

  start(): void {
    if (this.disposed || this.child !== null) return;
    this.stderr = '';
    this.pending = [];
    this.pendingBytes = 0;
    this.cutReason = null;
    const argv = sshArgv(this.config, remoteLookout(this.config, ['feed']), this.options.env);
    // Loaded when a link starts, not with every command (child_process costs ~3 ms of start-up).
    const { spawn } = process.getBuiltinModule('node:child_process');
    const child = spawn(this.options.ssh ?? 'ssh', argv, {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, ...this.options.env } as NodeJS.ProcessEnv,
    });
    this.child = child;
    this.cutting = false;
    // Every handler belongs to this child: a late event of an earlier one changes nothing.
    child.stdout.on('data', (chunk: Buffer) => {
      if (this.child === child && !this.cutting) this.take(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      // Only the tail is kept: a remote that floods stderr cannot fill this machine's memory.
      if (this.child === child) this.stderr = `${this.stderr}${chunk.toString('utf8')}`.slice(-8192);
      // A feed from before the handshake refuses the hello (and goes on): it is an older Lookout.
      if (this.child === child && this.hello !== null && this.stderr.includes('lookout feed: a command was refused')) {
        this.expected.delete(this.hello);
        this.hello = null;
        this.lookout = null;
        this.options.onChange();
      }
    });
    child.stdin.on('error', () => undefined);
    // The handshake: this Lookout's version; a feed that knows it answers with its own.
    this.asked += 1;
    this.hello = `hello-${process.pid}-${this.asked}`;
    this.expected.add(this.hello);
    child.stdin.write(`${JSON.stringify({ type: 'hello', lookout: LOOKOUT_VERSION, id: this.hello, protocols: this.options.protocols ?? FEED_PROTOCOLS })}\n`);
    this.seq = null;
    this.resyncing = false;
    this.invalidChanges = 0;
    child.on('error', (error) => {
      if (this.child === child) this.ended(null, `ssh could not start (${error.message})`);
    });
    // 'close', not 'exit': every line the feed wrote is read before the end is handled.
    child.on('close', (code) => {
      if (this.child === child) this.ended(code, null);
    });
  }

  /** Sends one fact to the host's own Lookout; refused (thrown) while the host is not connected. */
  send(command: FeedCommand): void {
    if (this.child === null || this.status.kind !== 'connected') throw new Error(`${this.config.name} is not connected; nothing was recorded`);
    this.child.stdin.write(`${JSON.stringify(command)}\n`);
  }

  /** Expects an answer to this id (a command sent with it). */
  expect(id: string): void {
    this.expected.add(id);
  }

  /** Lets go of what was kept for an answered (or given-up) command. */
  forget(id: string): void {
    this.expected.delete(id);
    this.answers.delete(id);
  }

  /**
   * Sends a command with an id and resolves with the host's answer (null: carried out; a string:
   * why not), or undefined when none came within `timeoutMs`.
   */
  ask(command: FeedCommand, timeoutMs = 5000): Promise<{ answer: string | null | undefined }> {
    this.asked += 1;
    const id = `ask-${process.pid}-${this.asked}`;
    this.expected.add(id);
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.waiting.delete(id);
        const answer = { answer: this.answers.get(id) };
        this.forget(id);
        resolve(answer);
      };
      const timer = setTimeout(done, timeoutMs);
      this.waiting.set(id, done);
      try {
        this.send({ ...command, id });
      } catch {
        done();
      }
    });
  }

  /** Whether the host answered that command: undefined not yet, null carried out, else why not. */
  answer(id: string): string | null | undefined {
    return this.answers.get(id);
  }

  dispose(): void {
    this.disposed = true;
    // Pending asks end now (no answer), their timers with them: nothing keeps a stopping process waiting.
    for (const done of [...this.waiting.values()]) done();
    if (this.retry !== null) clearTimeout(this.retry);
    this.retry = null;
    this.child?.kill('SIGTERM');
    this.child = null;
  }

  private take(chunk: Buffer): void {
    let start = 0;
    for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, start)) {
      this.pending.push(chunk.subarray(start, newline));
      const line = Buffer.concat(this.pending);
      this.pending = [];
      this.pendingBytes = 0;
      start = newline + 1;
      if (!this.line(line)) return;
    }
    if (start < chunk.length) {
      this.pending.push(chunk.subarray(start));
      this.pendingBytes += chunk.length - start;
      if (this.pendingBytes > LINE_MAX_BYTES) this.cut(`${this.config.name} sent a line over ${LINE_MAX_BYTES} bytes; cut off`);
    }
  }

  /** One line from the feed: a snapshot, or the end of this connection. */
  private line(bytes: Buffer): boolean {
    this.linesRead += 1;
    this.bytesRead += bytes.length + 1;
    if (bytes.length > LINE_MAX_BYTES) {
      this.cut(`${this.config.name} sent a line over ${LINE_MAX_BYTES} bytes; cut off`);
      return false;
    }
    // Bounded before it is parsed: depth, top-level keys, and what its row count could need.
    const refused = refuseShape(bytes);
    if (refused !== null) {
      this.cut(`${this.config.name} sent a line that is not a snapshot (${refused}); cut off`);
      return false;
    }
    let raw: unknown;
    try {
      raw = JSON.parse(bytes.toString('utf8'));
    } catch {
      this.cut(`${this.config.name} sent a line that is not a snapshot (not JSON); cut off`);
      return false;
    }
    const kind = lineKind(raw);
    const admitted = admit(snapshotSchema, raw);
    // A change line that does not validate costs a full snapshot, not the link (protocol 2), up to the third in a row.
    if (!admitted.ok && kind.kind === 'change') {
      this.invalidChanges += 1;
      if (this.invalidChanges < INVALID_CHANGES_MAX) return this.resync();
      this.cut(
        `${this.config.name} sent a line that is not a snapshot (${INVALID_CHANGES_MAX} change lines in a row that do not validate: ${plain(admitted.error, 120)}); cut off`,
      );
      return false;
    }
    if (!admitted.ok || kind.kind === 'bad') {
      this.cut(
        `${this.config.name} sent a line that is not a snapshot (${admitted.ok ? 'a change line without its number' : plain(admitted.error, 120)}); cut off`,
      );
      return false;
    }
    const said = (raw as { answered?: unknown }).answered;
    if (said === this.hello && this.hello !== null) {
      const self = admit(feedSelfSchema, (raw as { lookout?: unknown }).lookout);
      this.lookout = self.ok ? { version: plain(self.value.version, 40), protocol: self.value.protocol } : null;
      this.expected.delete(this.hello);
      this.hello = null;
    }
    if (admitted.value.schemaVersion !== 1) {
      // A mismatch the feed cannot speak with, said once and plainly, with what mends it.
      const there = this.lookout?.version === undefined ? 'a newer Lookout' : `Lookout ${this.lookout.version}`;
      this.cut(
        `${this.config.name} runs ${there}, whose feed (snapshot schema ${admitted.value.schemaVersion}) this Lookout ${LOOKOUT_VERSION} cannot read: update this one, or run \`lookout hosts upgrade ${this.config.name}\` to put this version there; cut off`,
      );
      return false;
    }
    // Only an id this side sent and still waits for: a remote cannot fill this machine's memory with answers.
    const answered = typeof said === 'string' && COMMAND_ID.test(said) && this.expected.has(said) ? said : undefined;
    const why = (raw as { refused?: unknown }).refused;
    if (typeof answered === 'string') this.answers.set(answered, typeof why === 'string' ? plain(why) : null);
    if (typeof answered === 'string') queueMicrotask(() => this.waiting.get(answered)?.());
    let whole: Snapshot;
    if (kind.kind === 'change') {
      // Applied only in sequence, onto a full snapshot: a gap asks for a full one again.
      if (this.snapshot === null || this.seq === null || kind.seq !== this.seq + 1) return this.resync();
      whole = applyChanges(this.snapshot, { ...admitted.value, seq: kind.seq, delta: true, removed: kind.removed });
      this.seq = kind.seq;
    } else {
      whole = admitted.value;
      this.seq = kind.seq;
      this.resyncing = false;
    }
    // A good line applied: the run of change lines that did not validate is over.
    this.invalidChanges = 0;
    this.snapshot = this.ownRows(whole);
    this.receivedAt = this.options.clock();
    // The backoff and the problem said start afresh only after a connection proved healthy (ended()).
    if (this.status.kind !== 'connected') this.status = { kind: 'connected', since: this.receivedAt };
    this.options.onChange();
    return true;
  }

  /**
   * Only that machine's own rows (never another host's it relays), of agents this Lookout knows,
   * with keys the popover can act on; rows of agents it does not know (a newer Lookout there) said once.
   */
  private ownRows(snapshot: Snapshot): Snapshot {
    const known = new Set(providerIds());
    const unknown = [...new Set(snapshot.sessions.map((row) => row.provider).filter((id) => !known.has(id)))];
    if (unknown.length > 0)
      this.sayOnce(
        `lookout: host ${this.config.name} shows sessions of agents this Lookout does not know (${unknown.map((id) => plain(id, 40)).join(', ')}); update Lookout here to see them`,
      );
    const own = snapshot.sessions.filter((row) => known.has(row.provider) && row.host === null && row.key.length <= ROW_KEY_MAX).slice(0, ROWS_MAX);
    return own.length === snapshot.sessions.length ? snapshot : { ...snapshot, sessions: own };
  }

  /** Asks the feed for a full snapshot (once until it comes); the rows held stay meanwhile. */
  private resync(): boolean {
    if (!this.resyncing) {
      this.resyncing = true;
      this.resyncsTotal += 1;
      this.child?.stdin.write(`${JSON.stringify({ type: 'resync' })}\n`);
    }
    return true;
  }

  /** Lines and bytes this link has read (the bench's bytes per change). */
  stats(): { lines: number; bytes: number; resyncs: number } {
    return { lines: this.linesRead, bytes: this.bytesRead, resyncs: this.resyncsTotal };
  }

  /** A problem line, unless it is the one said last for this host. */
  private sayOnce(line: string): void {
    if (line === this.said) return;
    this.said = line;
    this.options.onProblem(line);
  }

  private cut(reason: string): void {
    this.cutReason = reason;
    this.cutting = true;
    this.pending = [];
    this.pendingBytes = 0;
    this.child?.kill('SIGKILL');
  }

  private ended(code: number | null, startError: string | null): void {
    this.child = null;
    if (this.disposed) return;
    // A connection that stayed up a good while was healthy: what follows starts afresh.
    if (this.status.kind === 'connected' && this.options.clock() - this.status.since >= HEALTHY_MS && this.cutReason === null) {
      this.backoff = BACKOFF_FIRST_MS;
      this.said = null;
    }
    const reason =
      this.cutReason ??
      startError ??
      (code === NOT_FOUND
        ? `lookout not found on ${this.config.name}: set --command`
        : code === SSH_FAILED
          ? sshReason(this.stderr)
          : `its lookout feed stopped (${code === null ? 'killed' : `exit ${code}`}${this.stderr.trim() === '' ? '' : `: ${sshReason(this.stderr)}`})`);
    const now = this.options.clock();
    const kind = permanent(reason) ? 'failed' : 'unreachable';
    // The time it became unreachable stays while it stays so; a new reason is said once.
    const since = this.status.kind === kind ? this.status.since : now;
    this.status = { kind, since, reason };
    this.sayOnce(`lookout: host ${this.config.name} ${kind === 'failed' ? 'failed' : 'unreachable'}: ${reason}`);
    this.options.onChange();
    // onChange may have let go of this link (a one-shot look): then no retry.
    if (this.disposed) return;
    const wait = this.backoff;
    this.backoff = Math.min(BACKOFF_MAX_MS, this.backoff * 2);
    if (this.retry !== null) clearTimeout(this.retry);
    this.retry = setTimeout(() => {
      this.retry = null;
      this.start();
    }, wait);
  }
}
