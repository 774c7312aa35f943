// The server side of a host's feed (issue 13), beside its client (host-link.ts): it prints the
// snapshot (`status --json`'s object, every row) as one JSON line whenever a row changes, and
// reads the user facts the other machine records for this machine's sessions — review, mute,
// unmute, visit, attention — as JSON lines on its input, validated by the contract. The facts
// live here, with the sessions: a Lookout on this machine agrees with the one that asked.
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import type { DerivedSession, Evaluation, Snapshot } from '../../engine';
import type { CommandResult, FeedCommand, FeedHello } from '../../engine/contract';
import { admit, feedCommandSchema, feedHelloSchema } from '../../engine/contract';
import type { AnswerAttempt } from '../answer/broker';
import type { AnswerFrom } from '../answer/protocol';
import type { FactWriter } from '../facts/fact-writer';
import type { FeedProtocol } from './feed-changes';
import { ChangeWriter, agreedProtocol } from './feed-changes';
import { forOlderLookout } from './older-feed';
import { LOOKOUT_VERSION } from '../text/version';
import { jsonLineBytes } from '../text/terminal-text';

/** A command line longer than this is not one Lookout sends: it is refused, unread. */
const COMMAND_MAX_BYTES = 64 * 1024;

/** What the feed needs of the runtime (which sits above hosts/ and satisfies this as it is). */
interface FeedRuntime {
  readonly snapshot: Snapshot | null;
  readonly evaluation: Evaluation | null;
  readonly facts: Pick<FactWriter, 'review' | 'mute' | 'unmute' | 'visit' | 'attention'>;
  onSnapshot(listener: (snapshot: Snapshot) => void): () => void;
  answer(attempt: AnswerAttempt): Promise<CommandResult>;
  release(request: string, from: AnswerFrom): Promise<CommandResult>;
  evaluateNow(): void;
}

export interface FeedServerOptions {
  runtime: FeedRuntime;
  now: () => number;
  input: Readable;
  output: Writable;
  problem: (line: string) => void;
  /** The tmux pane a session's live process runs in, found as `open` would find it (open/ sits above hosts/). */
  locate: (session: DerivedSession) => string | null;
}

export interface FeedServer {
  /** Settles when the input ends (the other machine's ssh closed). */
  readonly closed: Promise<void>;
  /** Lets go of the input, so the process does not wait for its end. */
  close(): void;
}

/** Serves the feed on the given streams until closed; the caller starts and disposes the runtime. */
export function serveFeed({ runtime, now, input, output, problem, locate }: FeedServerOptions): FeedServer {
  // The hello of the Lookout that asked, answered on the first snapshot line that can carry it,
  // and the protocol agreed: 1 (a full snapshot every line) until a hello names 2 (changes).
  let hello: FeedHello | null = null;
  let protocol: FeedProtocol = 1;
  const writer = new ChangeWriter();
  const greeting = () => {
    const said = hello === null ? {} : { answered: hello.id, lookout: { version: LOOKOUT_VERSION, protocol } };
    hello = null;
    return said;
  };
  /** One line: the snapshot (or, in protocol 2, its changes), with the hello's answer or a command's. */
  const emit = (snapshot: Snapshot, extra: Record<string, string> = {}): void => {
    // A Lookout from before usage limits would refuse a limited row: it gets them as it read them.
    const shown = protocol === 3 ? snapshot : forOlderLookout(snapshot);
    const body = protocol === 1 ? shown : writer.line(shown);
    output.write(jsonLineBytes({ ...body, ...greeting(), ...extra }));
  };
  runtime.onSnapshot((snapshot) => emit(snapshot));

  const apply = async (command: FeedCommand): Promise<void> => {
    const session = runtime.evaluation?.derived.get(command.key);
    if (session === undefined) throw new Error(`no session ${command.key} here`);
    const at = now();
    const facts = runtime.facts;
    switch (command.type) {
      case 'review':
        facts.review(command.key, command.state, runtime.evaluation?.snapshot.sessions.find((row) => row.key === command.key)?.lastActivityAt ?? null, at);
        break;
      case 'mute': {
        const until = command.until === null ? null : Date.parse(command.until);
        if (until !== null && Number.isNaN(until)) throw new Error(`mute until "${command.until}" is not a time`);
        facts.mute(command.key, until, at);
        break;
      }
      case 'unmute':
        facts.unmute(command.key, at);
        break;
      case 'visit':
        await facts.visit(command.key, session.evidence.cwd, at);
        break;
      case 'attention':
        facts.attention(command.key, command.message, at);
        break;
      case 'answer':
      case 'release': {
        // Decided here, where the hook waits: the same checks as an answer given on this machine.
        const result =
          command.type === 'answer'
            ? await runtime.answer({
                request: command.request,
                digest: command.digest,
                decision: command.decision,
                from: 'host',
                via: command.via ?? 'command',
              })
            : await runtime.release(command.request, 'host');
        if (!result.ok) throw new Error(result.error ?? 'refused');
        break;
      }
      case 'locate': {
        answer(command, null, locate(session));
        return;
      }
    }
    runtime.evaluateNow();
    answer(command, null);
  };

  /** The answer to a command is the snapshot after it, changed or not, naming the command. */
  const answer = (command: FeedCommand, refused: string | null, pane: string | null = null): void => {
    const snapshot = runtime.snapshot;
    if (snapshot === null || command.id === undefined) return;
    emit(snapshot, { answered: command.id, ...(refused === null ? {} : { refused }), ...(pane === null ? {} : { pane }) });
  };

  const lines = createInterface({ input, crlfDelay: Infinity });
  const closed = new Promise<void>((resolve) => lines.once('close', () => resolve()));
  lines.on('line', (line) => {
    if (line.trim() === '') return;
    if (Buffer.byteLength(line) > COMMAND_MAX_BYTES) {
      problem(`lookout feed: a command line over ${COMMAND_MAX_BYTES} bytes was refused`);
      return;
    }
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      problem('lookout feed: a command line that is not JSON was refused');
      return;
    }
    if (typeof raw === 'object' && raw !== null && (raw as { type?: unknown }).type === 'hello') {
      const greeted = admit(feedHelloSchema, raw);
      if (!greeted.ok) return problem(`lookout feed: a hello was refused (${greeted.error})`);
      hello = greeted.value;
      protocol = agreedProtocol(greeted.value.protocols);
      writer.resync();
      // Answered now when a snapshot was written already, else with the first one.
      const snapshot = runtime.snapshot;
      if (snapshot !== null) emit(snapshot);
      return;
    }
    if (typeof raw === 'object' && raw !== null && (raw as { type?: unknown }).type === 'resync') {
      // The other side missed a line or could not read one: a full snapshot next.
      writer.resync();
      const snapshot = runtime.snapshot;
      if (snapshot !== null) emit(snapshot);
      return;
    }
    const admitted = admit(feedCommandSchema, raw);
    if (!admitted.ok) {
      problem(`lookout feed: a command was refused (${admitted.error})`);
      return;
    }
    const command = admitted.value;
    apply(command).catch((error: unknown) => {
      const why = error instanceof Error ? error.message : String(error);
      problem(`lookout feed: ${why}`);
      answer(command, why);
    });
  });
  return { closed, close: () => lines.close() };
}
