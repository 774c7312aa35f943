// What a phone channel is to the rest of Lookout (issue 49, status-model §15, R90–R95): a service
// the person chose (ntfy or a Telegram bot), reached only by connections made outward from this
// machine. A channel sends a message, may edit one it sent, and brings back taps on its actions;
// it never decides what a tap means (tokens.ts does) and never opens a port.

/** The services a person can set up. */
const PHONE_KINDS = ['ntfy', 'telegram'] as const;
type PhoneKind = (typeof PHONE_KINDS)[number];

/** One button on a phone message; `token` is the one-time token (R93) a tap brings back. */
interface PhoneButton {
  label: string;
  token: string;
}

/** A message as Lookout means it; each channel cuts and neutralises it for its service (R91). */
export interface PhoneMessage {
  title: string;
  body: string;
  /** Empty for a message nothing on the phone can answer. */
  buttons: readonly PhoneButton[];
}

/** How a channel finds a message it sent again (to edit it after a tap); opaque to the rest. */
export type SentRef = string | null;

/** A tap on a button, as the service brought it back. */
export interface PhoneTap {
  token: string;
  /** Who tapped where the service says (Telegram's chat and user); null where it cannot (ntfy). */
  from: { chat: string; user: string } | null;
  /** The message the tap was on, where the service says (to edit it with the outcome). */
  ref: SentRef;
  /** Telegram's callback query id: answered once with a short text; null elsewhere. */
  callback: string | null;
}

/** A service's refusal or a failed connection, with what R94's backoff needs. */
export class PhoneError extends Error {
  constructor(
    message: string,
    /** The HTTP status, or null for no answer at all (no network, a hang cut by the timeout). */
    readonly status: number | null,
    /** Seconds the service asked to wait (a 429's Retry-After or Telegram's retry_after), if any. */
    readonly retryAfter: number | null = null,
  ) {
    super(message);
    this.name = 'PhoneError';
  }
}

export interface PhoneChannel {
  readonly kind: PhoneKind;
  /** What `phone list` and `doctor` call it, with no secret in it (a token is never shown whole). */
  readonly label: string;
  /**
   * What came back that was not a tap to pass on, counted (R93): a tap from another chat or user
   * (answered there with why, and dropped), a reply-topic message that is no token, a malformed update.
   */
  readonly ignored: number;
  /** The most buttons one message can carry (ntfy: 3); a question with more options is sent with none. */
  readonly maxButtons?: number;
  /** Sends one message; throws PhoneError when the service refuses or cannot be reached. */
  send(message: PhoneMessage): Promise<SentRef>;
  /** Replaces a sent message's text and drops its buttons (after a tap); a no-op where the service has no edit. */
  settle(ref: SentRef, text: string): Promise<void>;
  /** Tells the tapper why a tap did or did not answer (a Telegram callback's toast, an ntfy message). */
  reply(tap: PhoneTap, text: string): Promise<void>;
  /**
   * Brings taps back until `signal` aborts (Telegram's getUpdates long-poll, ntfy's streaming
   * subscription to the reply topic); reconnects by itself; throws PhoneError only to report a
   * failure, after which the caller waits out its backoff and calls it again.
   */
  listen(onTap: (tap: PhoneTap) => void, signal: AbortSignal): Promise<void>;
}
