// The answer channel's listening end, in the running Lookout (tray app, `watch`, `serve`, a feed):
// a Unix socket in LOOKOUT_HOME/run (folder 0700, socket 0600), a fresh token each start (file
// 0600), and the owner's pid for the hook's cheap check. One Lookout owns it; another one that
// starts while it runs leaves it alone and answers through it, and takes it over on a later beat
// once that owner is gone (takeOver).
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Server, Socket } from 'node:net';
import { createConnection, createServer } from 'node:net';
import { chmodSync, readFileSync, rmSync } from 'node:fs';
import { privateFolder, writePrivate } from '../../providers/system/private-files';
import { errorCode } from '../../providers/problems';
import { folderProblem, processIsOurs, socketAt } from '../../providers/system/channel-checks';
import { readLines, sendLine } from './lines';
import { dropLock, takeLock } from './take-lock';
import { ownerPath, runFolder, socketPath, socketPathProblem, tokenPath } from './paths';
import type { ClientMessage } from './protocol';
import { clientMessageSchema } from './protocol';

export interface ChannelHandler {
  /** A message that passed the checks; `reply` answers on the same connection. */
  message(message: ClientMessage, socket: Socket): void;
  /** The connection closed (a hook gone: its request no longer waits). */
  closed(socket: Socket): void;
}

export type ChannelState = { kind: 'owner' } | { kind: 'elsewhere' } | { kind: 'off'; why: string };

/** Whether a live Lookout answers at that socket (a stale file from a crash refuses). */
function answers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createConnection(path);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
}

export class AnswerChannel {
  private server: Server | null = null;
  private token = '';
  private readonly sockets = new Set<Socket>();
  state: ChannelState = { kind: 'off', why: 'not started' };
  private taking = false;

  constructor(
    private readonly home: string,
    private readonly handler: ChannelHandler,
  ) {}

  /** Listens when no other Lookout does; says why not otherwise (never throws). */
  async start(): Promise<ChannelState> {
    this.state = await this.listenLocked();
    return this.state;
  }

  /** While another Lookout owns the channel: takes it once that one is gone (a live owner keeps it). */
  async takeOver(): Promise<ChannelState> {
    if (this.state.kind !== 'elsewhere' || this.taking) return this.state;
    this.taking = true;
    try {
      const state = await this.listenLocked();
      // Stopped meanwhile: what was taken is let go at once.
      if (this.state.kind !== 'elsewhere') {
        if (state.kind === 'owner') await this.stop();
        return this.state;
      }
      this.state = state;
      return state;
    } finally {
      this.taking = false;
    }
  }

  /** Makes the run folder private (0700) and says why it cannot serve, or null. */
  private runFolderProblem(): string | null {
    try {
      privateFolder(runFolder(this.home));
    } catch (error) {
      return `${runFolder(this.home)} cannot be made (${errorCode(error) ?? String(error)})`;
    }
    return folderProblem(runFolder(this.home));
  }

  /** Listens under the take lock; another Lookout taking it right now leaves this one elsewhere, to try again. */
  private async listenLocked(): Promise<ChannelState> {
    const folder = this.runFolderProblem();
    if (folder !== null) return { kind: 'off', why: folder };
    if (!takeLock(this.home)) return { kind: 'elsewhere' };
    try {
      return await this.listen();
    } finally {
      dropLock(this.home);
    }
  }

  private async listen(): Promise<ChannelState> {
    const path = socketPath(this.home);
    const tooLong = socketPathProblem(path);
    if (tooLong !== null) return { kind: 'off', why: tooLong };
    const folder = this.runFolderProblem();
    if (folder !== null) return { kind: 'off', why: folder };
    const found = socketAt(path);
    if (found.kind === 'bad') return { kind: 'off', why: found.why };
    if (found.kind === 'socket') {
      if (await answers(path)) return { kind: 'elsewhere' };
      // A crashed Lookout's socket: nobody listens there any more.
      rmSync(path, { force: true });
    }
    this.token = randomBytes(32).toString('hex');
    const server = createServer((socket) => this.accept(socket));
    const listening = await new Promise<ChannelState>((resolve) => {
      server.once('error', (error) =>
        resolve(errorCode(error) === 'EADDRINUSE' ? { kind: 'elsewhere' } : { kind: 'off', why: `${path}: ${errorCode(error) ?? String(error)}` }),
      );
      server.listen(path, () => resolve({ kind: 'owner' }));
    });
    if (listening.kind !== 'owner') {
      server.close();
      return listening;
    }
    this.server = server;
    try {
      chmodSync(path, 0o600);
      writePrivate(tokenPath(this.home), `${this.token}\n`);
      writePrivate(ownerPath(this.home), `${process.pid}\n`);
    } catch (error) {
      await this.stop();
      return { kind: 'off', why: `${runFolder(this.home)}: ${errorCode(error) ?? String(error)}` };
    }
    return { kind: 'owner' };
  }

  private accept(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      this.sockets.delete(socket);
      this.handler.closed(socket);
    });
    readLines(socket, (value) => {
      const parsed = clientMessageSchema.safeParse(value);
      if (!parsed.success) {
        sendLine(socket, { type: 'result', ok: false, error: 'not a message Lookout understands' });
        socket.end();
        return;
      }
      const message = parsed.data;
      if (!this.tokenMatches(message.token)) {
        sendLine(socket, { type: 'result', ok: false, error: 'wrong token' });
        socket.end();
        return;
      }
      if ('pid' in message && !processIsOurs(message.pid)) {
        sendLine(socket, { type: 'result', ok: false, error: "the process is not this user's" });
        socket.end();
        return;
      }
      this.handler.message(message, socket);
    });
  }

  private tokenMatches(given: string): boolean {
    const expected = Buffer.from(this.token);
    const actual = Buffer.from(given);
    return this.token !== '' && expected.length === actual.length && timingSafeEqual(expected, actual);
  }

  /** Stops listening and removes the socket, the token and the pid (only while they are this process's). */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    // Stopped also when it did not own the channel: a take-over still under way lets go of it.
    if (server === null) {
      this.state = { kind: 'off', why: 'stopped' };
      return;
    }
    await new Promise<void>((resolve) => server.close(() => resolve()));
    if (this.ownsPidFile()) {
      rmSync(socketPath(this.home), { force: true });
      rmSync(tokenPath(this.home), { force: true });
      rmSync(ownerPath(this.home), { force: true });
    }
    this.state = { kind: 'off', why: 'stopped' };
  }

  private ownsPidFile(): boolean {
    try {
      return Number(readFileSync(ownerPath(this.home), 'utf8').trim()) === process.pid;
    } catch {
      return false;
    }
  }
}
