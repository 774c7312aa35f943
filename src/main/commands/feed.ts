// `lookout feed`: what another machine's Lookout runs here over ssh (issue 13). It prints the
// snapshot (`status --json`'s object, every row) as one JSON line whenever a row changes, and
// reads the user facts that machine records for this machine's sessions — review, mute, unmute,
// visit, attention — as JSON lines on its standard input, validated by the contract. The facts
// live here, with the sessions: a Lookout on this machine agrees with the one that asked.
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import type { Snapshot } from '../../engine';
import type { FeedCommand, FeedHello } from '../../engine/contract';
import { admit, feedCommandSchema, feedHelloSchema } from '../../engine/contract';
import type { FeedProtocol } from '../hosts/feed-changes';
import { ChangeWriter, agreedProtocol } from '../hosts/feed-changes';
import { forOlderLookout } from '../hosts/older-feed';
import { LOOKOUT_VERSION } from '../text/version';
import { resolveNow } from '../cli/now-option';
import { jsonLineBytes, printLines } from '../text/terminal-text';
import { flowingClock } from '../pipeline/clock';
import { Runtime } from '../runtime/runtime';
import { untilInterrupted } from './interrupted';
import { planOpen } from '../open/plan';
import { openTarget } from '../open/session-process';
import { systemProbes } from '../open/probes';

/** A command line longer than this is not one Lookout sends: it is refused, unread. */
const COMMAND_MAX_BYTES = 64 * 1024;

export async function feedCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { now: { type: 'string' } }, strict: true, allowPositionals: false });
  const clock = flowingClock(resolveNow(values.now));
  const problem = (line: string) => printLines(process.stderr, [line]);
  // This machine's own sessions only: never the hosts its own settings name (no loops, no relays).
  const runtime = new Runtime({ env: process.env, clock, notifier: null, onProblem: problem, hosts: false, phone: false });
  // The other end gone (ssh closed): nothing more to say.
  process.stdout.on('error', () => process.exit(0));
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
    process.stdout.write(jsonLineBytes({ ...body, ...greeting(), ...extra }));
  };
  runtime.onSnapshot((snapshot) => emit(snapshot));

  const apply = async (command: FeedCommand): Promise<void> => {
    const session = runtime.evaluation?.derived.get(command.key);
    if (session === undefined) throw new Error(`no session ${command.key} here`);
    const now = clock();
    const facts = runtime.facts;
    switch (command.type) {
      case 'review':
        facts.review(command.key, command.state, runtime.evaluation?.snapshot.sessions.find((row) => row.key === command.key)?.lastActivityAt ?? null, now);
        break;
      case 'mute': {
        const until = command.until === null ? null : Date.parse(command.until);
        if (until !== null && Number.isNaN(until)) throw new Error(`mute until "${command.until}" is not a time`);
        facts.mute(command.key, until, now);
        break;
      }
      case 'unmute':
        facts.unmute(command.key, now);
        break;
      case 'visit':
        await facts.visit(command.key, session.evidence.cwd, now);
        break;
      case 'attention':
        facts.attention(command.key, command.message, now);
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
        // The tmux pane the live process runs in, found here as `open` would find it.
        const plan = planOpen({ ...openTarget(session.evidence, session.observed.state, runtime.roots), resume: [], live: true }, null, systemProbes());
        answer(command, null, plan.kind === 'tmux-pane' ? plan.pane : null);
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

  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
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

  const interrupted = untilInterrupted();
  await runtime.start();
  // Stops when told to, or when the machine that asked goes away (its ssh closes our stdin).
  await Promise.race([interrupted, closed]);
  await runtime.dispose();
  // Interrupted with its input still open: let go of it, or the process waits for an end of input.
  lines.close();
  process.stdin.destroy();
  return 0;
}
