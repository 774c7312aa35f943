// The runtime's two ways of telling the person (R40–R44): the phone (issue 49), wrapping the
// desktop's notifier, and the notices that carry out what the engine planned. Built once with what
// the runtime lends them; a face with neither tells nothing and records nothing as told (R41).
import type { Evaluation, NotifyCandidate, Row } from '../../engine';
import { claimsToNotify, remoteCandidates, splitHostKey } from '../../engine';
import type { CommandResult, FeedCommand } from '../../engine/contract';
import type { AnswerAttempt } from '../answer/broker';
import type { FactWriter } from '../facts/fact-writer';
import type { Notifier } from '../notify/notifier';
import type { Clock } from '../pipeline/clock';
import type { RuntimeState } from '../pipeline/state';
import { phoneAnswer } from '../phone/tokens';
import { Notices } from './notices';
import type { RemoteNotices } from './remote-notices';
import type { PhoneOptions } from './phone-wiring';
import { PhoneSwitch } from './phone-wiring';

/** What the runtime lends the faces that tell. */
export interface TellingPorts {
  home: string;
  clock: Clock;
  facts: FactWriter;
  settings(): RuntimeState['settings'];
  onProblem(line: string): void;
  /** The rows as last published (this machine's and every host's). */
  rows(): readonly Row[];
  /** A fact for another machine's session, to that machine's Lookout: false for a local key. */
  remoteAsk(command: FeedCommand): Promise<boolean>;
  answer(attempt: AnswerAttempt): Promise<CommandResult>;
  open(keys: readonly string[]): void;
  evaluateNow(): void;
}

/** The phone, or null: a face with no desktop notifier has one only when a phone is asked for or set up. */
export function phoneFor(desktop: Notifier | null, options: PhoneOptions | false | undefined, ports: TellingPorts): PhoneSwitch | null {
  const phone = options === false ? null : (options ?? {});
  if (phone === null || (desktop === null && !PhoneSwitch.wanted(phone, ports.home))) return null;
  return new PhoneSwitch(desktop, phone, {
    home: ports.home,
    clock: ports.clock,
    ttl: () => ports.settings().timings.phoneAnswerTtl,
    onProblem: (line) => ports.onProblem(line),
    // A tap is a click on the message that showed the exact command (R72), from `phone` (R92).
    answer: async (target, decision, channel) => {
      const chosen = phoneAnswer(decision);
      if (await ports.remoteAsk({ type: 'answer', key: target.key, request: target.request, digest: target.digest, decision: chosen, via: 'click' }))
        return { ok: true };
      return ports.answer({ request: target.request, digest: target.digest, decision: chosen, from: 'phone', via: 'click', channel });
    },
  });
}

/** The notices over the notifier (the phone's, else the desktop's), or null with none. */
export function noticesFor(notifier: Notifier | null, ports: TellingPorts): Notices | null {
  if (notifier === null) return null;
  return new Notices({
    notifier,
    facts: ports.facts,
    home: ports.home,
    quietHours: () => ports.settings().quietHours,
    onProblem: (line) => ports.onProblem(line),
    actions: () => ({
      rows: () => ports.rows(),
      facts: ports.facts,
      remoteAsk: (command) => ports.remoteAsk(command),
      open: (keys) => ports.open(keys),
      onProblem: (line) => ports.onProblem(line),
      evaluateNow: () => ports.evaluateNow(),
      now: ports.clock,
      // The notification showed the exact command: its button is a click on that card (R72).
      answer: (attempt) => ports.answer({ ...attempt, from: 'notification', via: 'click' }),
    }),
  });
}

/** What other machines' claims are weighed against: this machine's settings, ledger and screen. */
export interface HostClaimsInput {
  providerNames: Readonly<Record<string, string>>;
  settings: RuntimeState['settings'];
  notified: readonly string[];
  onScreen: string | null;
}

/** Other machines' claims due now (R40–R41 over their rows), each host capped and paced by `remote`. */
export function hostClaimsDue(remote: RemoteNotices, rows: readonly Row[], now: number, input: HostClaimsInput): NotifyCandidate[] {
  return remote.due(rows, now, (taken) =>
    claimsToNotify(
      remoteCandidates(taken, input.providerNames, input.settings.rules),
      new Set(input.notified),
      input.settings.notifications,
      input.onScreen,
      now,
      input.settings.timings,
    ),
  );
}

/** Whether a phone's token still answers a prompt the rows show open (R93): another machine's is its own to judge. */
export function shownOpen(evaluation: Evaluation, hostNames: readonly string[]): (key: string, request: string, digest: string) => boolean {
  return (key, request, digest) => {
    if (splitHostKey(key, hostNames).host !== null) return true;
    const view = evaluation.derived.get(key)?.answer;
    return view?.state === 'open' && view.request.id === request && view.request.digest === digest;
  };
}
