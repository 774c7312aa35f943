// Each channel's own queue (R94): the notifier hands a message over and goes on, so sending never
// delays the desktop notification or the tray. At most OUTBOX_MAX messages wait (the oldest are
// dropped and counted); a failure is said once, retried with backoff, and the recovery said once.
import type { PhoneChannel, PhoneMessage, SentRef } from './channel';
import { PhoneError } from './channel';
import type { Timers } from './backoff';
import { Backoff, failureText } from './backoff';

export const OUTBOX_MAX = 20;

/** What doctor and `phone list` show of a channel. */
export interface ChannelHealth {
  lastOk: number | null;
  lastError: { at: number; text: string } | null;
  dropped: number;
}

interface Waiting {
  message: PhoneMessage;
  sent: (ref: SentRef) => void;
}

export interface OutboxPorts {
  clock: () => number;
  timers: Timers;
  onProblem: (line: string) => void;
  /** After every success and failure: the health, for run/phone-state.json. */
  onHealth: (health: ChannelHealth) => void;
  backoff?: Backoff;
}

export class Outbox {
  private readonly queue: Waiting[] = [];
  private busy = false;
  private timer: unknown = null;
  private failing = false;
  private disposed = false;
  private readonly backoff: Backoff;
  readonly health: ChannelHealth = { lastOk: null, lastError: null, dropped: 0 };

  constructor(
    private readonly channel: PhoneChannel,
    private readonly ports: OutboxPorts,
  ) {
    this.backoff = ports.backoff ?? new Backoff();
  }

  /** Messages waiting, not counting the one being sent. */
  get waiting(): number {
    return this.queue.length;
  }

  /** Queued, never awaited: `sent` runs with the service's reference once it went. */
  push(message: PhoneMessage, sent: (ref: SentRef) => void = () => undefined): void {
    if (this.disposed) return;
    this.queue.push({ message, sent });
    while (this.queue.length > OUTBOX_MAX) {
      this.queue.shift();
      this.health.dropped += 1;
    }
    this.pump();
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer !== null) this.ports.timers.clear(this.timer);
    this.timer = null;
    this.queue.length = 0;
  }

  private pump(): void {
    if (this.busy || this.timer !== null || this.disposed) return;
    const head = this.queue.shift();
    if (head === undefined) return;
    this.busy = true;
    void this.channel.send(head.message).then(
      (ref) => this.succeeded(head, ref),
      (error: unknown) => this.failed(head, error),
    );
  }

  private succeeded(head: Waiting, ref: SentRef): void {
    this.busy = false;
    this.health.lastOk = this.ports.clock();
    this.backoff.reset();
    if (this.failing) {
      this.failing = false;
      this.ports.onProblem(`lookout: phone channel ${this.channel.label} sends again`);
    }
    this.ports.onHealth(this.health);
    head.sent(ref);
    this.pump();
  }

  private failed(head: Waiting, error: unknown): void {
    this.busy = false;
    // Tried again first; if the queue filled meanwhile, the oldest waiting give way.
    this.queue.unshift(head);
    while (this.queue.length > OUTBOX_MAX) {
      this.queue.splice(1, 1);
      this.health.dropped += 1;
    }
    const text = failureText(error);
    this.health.lastError = { at: this.ports.clock(), text };
    const wait = this.backoff.delay(error instanceof PhoneError ? error.retryAfter : null);
    if (!this.failing) {
      this.failing = true;
      this.ports.onProblem(`lookout: phone channel ${this.channel.label}: ${text}; retrying with backoff (the desktop is not affected)`);
    }
    this.ports.onHealth(this.health);
    if (this.disposed) return;
    this.timer = this.ports.timers.set(() => {
      this.timer = null;
      this.pump();
    }, wait);
  }
}
