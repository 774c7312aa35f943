// The phone as a notifier (issue 49, R90–R95): it wraps the desktop's, which goes first and is
// never held up, and hands the same plans (already coalesced, quiet hours, mutes and rules applied)
// to each channel's outbox while the phone should send: always, or while the person is away. An
// answerable plan carries Allow and Deny, each a one-time token; a tap comes back through the
// channel's listener and answers through the runtime as a click from `phone` (R92), or is refused
// with a reply saying why (R93). Only the process holding run/phone.lock sends and listens.
import type { NotificationAction, NotificationPlan } from '../../engine';
import type { CommandResult } from '../../engine/contract';
import type { Notifier } from '../notify/notifier';
import type { PhoneChannel, PhoneMessage, PhoneTap, SentRef } from './channel';
import { PhoneError } from './channel';
import type { Timers } from './backoff';
import { Backoff, failureText, realTimers } from './backoff';
import type { ChannelHealth } from './outbox';
import { Outbox } from './outbox';
import { dropPhoneLock, takePhoneLock } from './phone-lock';
import type { PhoneDecision, TokenBinding } from './tokens';
import { ActionTokens, REFUSAL_TEXT } from './tokens';

export interface PhoneTarget {
  key: string;
  request: string;
  digest: string;
}

export interface PhonePorts {
  clock: () => number;
  /** phoneAnswerTtl, as the settings say now. */
  ttl: () => number;
  /** The runtime's answer: from `phone`, via a click (R72), with the channel for the audit (R95). */
  answer: (target: PhoneTarget, decision: PhoneDecision, channel: string) => Promise<CommandResult>;
  onProblem: (line: string) => void;
  /** LOOKOUT_HOME for run/phone.lock; null sends and listens without it (tests of one process). */
  home: string | null;
  /** Each channel's health after a send (for run/phone-state.json). */
  onHealth?: (id: string, health: ChannelHealth) => void;
  timers?: Timers;
  /** A fresh backoff for each outbox and listener (tests make it short). */
  backoff?: () => Backoff;
}

/** One set-up channel: its id in phone.json and the channel itself. */
export interface PhoneLine {
  id: string;
  channel: PhoneChannel;
}

/** Sent messages remembered for settling a tap (the newest). */
const REFS_MAX = 200;

export class PhoneNotifier implements Notifier {
  /** Sends on every notification, not only while away (`watch --phone`, mode "always"). */
  always: boolean;
  private away = false;
  private readonly tokens: ActionTokens;
  private readonly outboxes = new Map<string, Outbox>();
  private readonly refs = new Map<string, SentRef>();
  private readonly listening = new AbortController();
  private holding = false;
  private saidElsewhere = false;
  private disposed = false;

  constructor(
    private readonly desktop: Notifier | null,
    private readonly lines: readonly PhoneLine[],
    private readonly ports: PhonePorts,
    always: boolean,
  ) {
    this.always = always;
    this.tokens = new ActionTokens(ports.ttl);
    for (const line of lines)
      this.outboxes.set(
        line.id,
        new Outbox(line.channel, {
          clock: ports.clock,
          timers: ports.timers ?? realTimers,
          onProblem: ports.onProblem,
          onHealth: (health) => ports.onHealth?.(line.id, health),
          ...(ports.backoff === undefined ? {} : { backoff: ports.backoff() }),
        }),
      );
  }

  /** The tray's word (R91): idle for awayAfter or the screen locked. */
  setAway(away: boolean): void {
    this.away = away;
  }

  get sending(): boolean {
    return this.always || this.away;
  }

  /** Takes the phone lock and starts listening for taps; false when another Lookout has it. */
  start(): boolean {
    if (this.disposed) return false;
    if (this.holding) return true;
    this.holding = this.ports.home === null || takePhoneLock(this.ports.home);
    if (this.holding) {
      for (const line of this.lines) void this.listen(line);
    } else if (!this.saidElsewhere) {
      this.saidElsewhere = true;
      this.ports.onProblem(
        'lookout: another Lookout process sends to the phone and listens for its taps (run/phone.lock); this one leaves it to that one until it exits',
      );
    }
    return this.holding;
  }

  send(plan: NotificationPlan, onAction: (action: NotificationAction) => void): Promise<void> {
    // The desktop first, and never waiting on the phone (R94).
    const desktop = this.desktop?.send(plan, onAction) ?? Promise.resolve();
    try {
      if (this.sending && this.start()) this.toPhone(plan);
    } catch (error) {
      this.ports.onProblem(`lookout: the phone notification was not sent: ${failureText(error)}`);
    }
    return desktop;
  }

  /** After each evaluation: tokens of a prompt the rows no longer show open are void (R93). */
  keepShown(shown: (key: string, request: string, digest: string) => boolean): void {
    if (this.tokens.live) this.tokens.keepShown(shown);
  }

  dispose(): void {
    this.stopPhone();
    this.desktop?.dispose?.();
  }

  /** Stops sending and listening and lets the phone lock go; the desktop notifier it wraps goes on (phone.json changed). */
  stopPhone(): void {
    this.disposed = true;
    this.listening.abort();
    for (const outbox of this.outboxes.values()) outbox.dispose();
    if (this.holding && this.ports.home !== null) dropPhoneLock(this.ports.home);
    this.holding = false;
  }

  /** One channel's message for a plan: the desktop's words, with Allow and Deny, or a question's options, where it is answerable. */
  private message(plan: NotificationPlan, line: PhoneLine): PhoneMessage {
    const target = plan.answer;
    if (target === undefined) return { title: plan.title, body: plan.body, buttons: [] };
    const now = this.ports.clock();
    const bound = (decision: PhoneDecision) =>
      this.tokens.issue({ channel: line.id, key: target.key, request: target.request, digest: target.digest, decision, tool: plan.body }, now);
    const { options } = target;
    if (options === undefined)
      return {
        title: plan.title,
        body: plan.body,
        buttons: [
          { label: 'Allow', token: bound('allow') },
          { label: 'Deny', token: bound('deny') },
        ],
      };
    // A row of buttons the service cannot show whole is not offered in part: the question is answered at the computer.
    if (options.length > (line.channel.maxButtons ?? Number.POSITIVE_INFINITY))
      return { title: plan.title, body: `${plan.body}\n(more options than the phone shows: answer it at the computer)`, buttons: [] };
    return { title: plan.title, body: plan.body, buttons: options.map((label) => ({ label, token: bound({ option: label }) })) };
  }

  private toPhone(plan: NotificationPlan): void {
    for (const line of this.lines) {
      const outbox = this.outboxes.get(line.id);
      const request = plan.answer?.request;
      outbox?.push(this.message(plan, line), (ref) => {
        if (request === undefined) return;
        this.refs.set(`${line.id}\0${request}`, ref);
        for (const old of this.refs.keys()) {
          if (this.refs.size <= REFS_MAX) break;
          this.refs.delete(old);
        }
      });
    }
  }

  /** The channel's taps until disposed; a failure said once, retried with backoff (R94). */
  private async listen(line: PhoneLine): Promise<void> {
    const signal = this.listening.signal;
    const backoff = this.ports.backoff?.() ?? new Backoff();
    const timers = this.ports.timers ?? realTimers;
    let failing = false;
    while (!signal.aborted) {
      try {
        await line.channel.listen((tap) => void this.tapped(line, tap), signal);
        if (failing) this.ports.onProblem(`lookout: phone channel ${line.channel.label} listens again`);
        failing = false;
        backoff.reset();
      } catch (error) {
        if (signal.aborted) return;
        if (!failing) this.ports.onProblem(`lookout: phone channel ${line.channel.label} cannot listen for taps: ${failureText(error)}; retrying with backoff`);
        failing = true;
        const wait = backoff.delay(error instanceof PhoneError ? error.retryAfter : null);
        await new Promise<void>((resolve) => {
          const handle = timers.set(resolve, wait);
          signal.addEventListener(
            'abort',
            () => {
              timers.clear(handle);
              resolve();
            },
            { once: true },
          );
        });
      }
    }
  }

  /** A tap: its token spent or refused (R93), then the answer through the runtime (R92). */
  private async tapped(line: PhoneLine, tap: PhoneTap): Promise<void> {
    const { channel } = line;
    try {
      const spent = this.tokens.spend(tap.token, line.id, this.ports.clock());
      if (!spent.ok) {
        const why = `Not sent: ${REFUSAL_TEXT[spent.why]}`;
        await channel.reply(tap, why);
        // A message whose buttons no longer answer (expired, its prompt changed) says so and loses them;
        // one already answered keeps saying what was answered.
        if (tap.ref !== null && (spent.why === 'expired' || spent.why === 'changed')) await channel.settle(tap.ref, why);
        return;
      }
      const { binding } = spent;
      let result: CommandResult;
      try {
        result = await this.ports.answer(binding, binding.decision, channel.label);
      } catch (error) {
        result = { ok: false, error: failureText(error) };
      }
      const ref = tap.ref ?? this.refs.get(`${line.id}\0${binding.request}`) ?? null;
      const text = settled(binding, result);
      await channel.settle(ref, text);
      // A Telegram button spins until its callback is answered; ntfy has none (its settle said it).
      if (tap.callback !== null) await channel.reply(tap, text);
    } catch (error) {
      this.ports.onProblem(`lookout: phone channel ${channel.label}: a tap's reply was not sent: ${failureText(error)}`);
    }
  }
}

/** What the message says once a tap was carried out or refused by the runtime. */
function settled(binding: TokenBinding, result: CommandResult): string {
  const what = binding.tool.length > 80 ? `${binding.tool.slice(0, 79)}…` : binding.tool;
  if (!result.ok) return `Not sent: ${result.error ?? 'refused'} (${what})`;
  const { decision } = binding;
  const done = decision === 'allow' ? 'Allowed ✓' : decision === 'deny' ? 'Denied ✗' : `Answered "${decision.option}" ✓`;
  return `${done} from the phone: ${what}`;
}
