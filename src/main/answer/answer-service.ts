// Answering in a running Lookout: the channel it owns (or the one another Lookout owns), the
// broker holding the hooks' requests, and the requests file every Lookout process reads.
import { rmSync } from 'node:fs';
import type { AnswerRequest, AnswerView, Snapshot } from '../../engine';
import type { CommandResult } from '../../engine/contract';
import type { AnswerAttempt, AnswerRecord } from './broker';
import { AnswerBroker } from './broker';
import type { ChannelState } from './channel-server';
import { AnswerChannel } from './channel-server';
import { sendControl } from './control-client';
import { sendLine } from './lines';
import type { Socket } from 'node:net';
import { requestsPath } from './paths';
import type { AnswerFrom } from './protocol';
import { writeRequests } from './requests-file';

export interface AnswerServiceOptions {
  home: string;
  clock: () => number;
  viewOf: (key: string) => AnswerView | null;
  movedOn: (key: string, request: AnswerRequest, askedAt: number | null) => boolean;
  /** The requests file changed: read it and evaluate. */
  onRequests: (path: string) => void;
  onAnswer: (record: AnswerRecord) => void;
  onProblem: (line: string) => void;
  /** The rows the runtime shows now, for `lookout status` (issue 51); null before its first evaluation. */
  snapshot?: () => Snapshot | null;
  /** What `lookout status` would print of them, in parts (issue 51); null before the first evaluation. */
  status?: (question: StatusQuestion) => Buffer[] | null;
}

/** What `lookout status` asks the running Lookout to print (the protocol's `status` message). */
export interface StatusQuestion {
  all: boolean;
  json: boolean;
  width: number | null;
  color: boolean;
}

/** What a Lookout that holds no answer channel (a test's, by choice) says to an answer. */
export const NOT_ANSWERING: CommandResult = { ok: false, error: 'this Lookout does not answer prompts' };

export class AnswerService {
  private readonly broker: AnswerBroker;
  private readonly channel: AnswerChannel;
  private stopped = false;

  constructor(private readonly options: AnswerServiceOptions) {
    this.broker = new AnswerBroker({
      clock: options.clock,
      viewOf: options.viewOf,
      movedOn: options.movedOn,
      onChange: () => this.written(),
      onAnswer: options.onAnswer,
    });
    this.channel = new AnswerChannel(options.home, {
      message: (message, socket) => {
        switch (message.type) {
          case 'snapshot':
            return this.sendSnapshot(socket, message.all);
          case 'status':
            return this.sendStatus(socket, { all: message.all, json: message.json, width: message.width, color: message.color });
          default:
            return this.broker.message(message, socket);
        }
      },
      closed: (socket) => this.broker.hookGone(socket),
    });
  }

  /** The rows shown (historical ones only with `all`), as one line; none before the first evaluation. */
  private sendSnapshot(socket: Socket, all: boolean): void {
    const snapshot = this.options.snapshot?.() ?? null;
    const shown = snapshot === null || all ? snapshot : { ...snapshot, sessions: snapshot.sessions.filter((row) => !row.historical) };
    sendLine(socket, { type: 'snapshot', snapshot: shown });
    socket.end();
  }

  /** What `lookout status` prints, as this Lookout shows it now: a head line with its length, then the bytes. */
  private sendStatus(socket: Socket, question: StatusQuestion): void {
    const parts = this.options.status?.(question) ?? null;
    let bytes = 0;
    for (const part of parts ?? []) bytes += part.length;
    // Corked: the head and a row's thousands of parts go out in one write.
    socket.cork();
    sendLine(socket, { type: 'status', bytes: parts === null ? null : bytes });
    for (const part of parts ?? []) socket.write(part);
    socket.end();
  }

  get state(): ChannelState {
    return this.channel.state;
  }

  async start(): Promise<void> {
    const state = await this.channel.start();
    if (state.kind === 'off') this.options.onProblem(`lookout: answering prompts from Lookout is off: ${state.why}`);
  }

  /** An answer given here: the broker's when this Lookout owns the channel, else sent to the one that does. */
  answer(attempt: AnswerAttempt): Promise<CommandResult> {
    if (this.channel.state.kind === 'owner') return Promise.resolve(strip(this.broker.answer(attempt)));
    return sendControl(this.options.home, { type: 'answer', ...attempt });
  }

  release(request: string, from: AnswerFrom): Promise<CommandResult> {
    if (this.channel.state.kind === 'owner') return Promise.resolve(strip(this.broker.release(request, from)));
    return sendControl(this.options.home, { type: 'release', request, from });
  }

  /** After each evaluation: let go of what the rows no longer show. */
  reconcile(answeredHold: number): void {
    if (this.channel.state.kind === 'owner') this.broker.reconcile(answeredHold);
  }

  /** On every beat: take the channel over when its owner is gone. */
  beat(): void {
    if (this.channel.state.kind === 'elsewhere') void this.takeOver();
  }

  /** The owner exited (a short `lookout feed`, a terminal `watch`): this Lookout answers from now on. */
  private async takeOver(): Promise<void> {
    const state = await this.channel.takeOver();
    // The rows read the requests file: an empty one from the new owner, and an evaluation now.
    if (state.kind === 'owner') this.written();
  }

  async stop(): Promise<void> {
    const owner = this.channel.state.kind === 'owner';
    this.broker.releaseAll();
    // Hooks whose connections close with the channel change nothing left on disk: the file goes next.
    this.stopped = true;
    await this.channel.stop();
    if (owner) rmSync(requestsPath(this.options.home), { force: true });
  }

  private written(): void {
    if (this.stopped) return;
    try {
      writeRequests(this.options.home, this.broker.requests);
    } catch (error) {
      this.options.onProblem(`lookout: the answer requests could not be written (${String(error)})`);
    }
    this.options.onRequests(requestsPath(this.options.home));
  }
}

function strip(result: CommandResult): CommandResult {
  return result.error === undefined ? { ok: result.ok } : { ok: result.ok, error: result.error };
}
