// One-time action tokens (R93): each button a phone message carries names one token, bound to
// the request's id and digest and to one decision. A token is spent on first use; it and every
// other token of its request are void from then on, after phoneAnswerTtl, and once the row no
// longer shows that request. A refused token says why, for the reply to the tapper.
import { randomBytes } from 'node:crypto';
import type { AnswerDecision } from '../../engine/contract';

/** Allow, Deny, or one option of a question of one choice (R92), by its label. */
export type PhoneDecision = 'allow' | 'deny' | { option: string };

export interface TokenBinding {
  /** The channel whose message carried it: a token brought back by another is unknown there. */
  channel: string;
  key: string;
  request: string;
  digest: string;
  decision: PhoneDecision;
  /** What the message said (the tool), for the line that settles it. */
  tool: string;
  issuedAt: number;
}

/** Why a token does not answer, as the tapper is told. */
export type Refusal = 'answered' | 'expired' | 'changed' | 'unknown';

export const REFUSAL_TEXT: Readonly<Record<Refusal, string>> = {
  answered: 'already answered: a prompt is answered once',
  expired: 'expired: answer it at the computer',
  changed: 'this prompt changed or was answered elsewhere; nothing was sent',
  unknown: 'unknown: this button is not one Lookout sent (or it restarted since)',
};

/** 16 random bytes, base64url: 22 characters, so Telegram's 64-byte callback_data has room. */
export const TOKEN_SHAPE = /^[A-Za-z0-9_-]{22}$/;

/** Tokens kept (live and recently void, for the reason): the oldest go first. */
export const TOKENS_MAX = 500;

interface Entry {
  binding: TokenBinding;
  void: Refusal | null;
}

export class ActionTokens {
  private readonly table = new Map<string, Entry>();

  constructor(private readonly ttl: () => number) {}

  issue(binding: Omit<TokenBinding, 'issuedAt'>, now: number): string {
    const token = randomBytes(16).toString('base64url');
    this.table.set(token, { binding: { ...binding, issuedAt: now }, void: null });
    for (const old of this.table.keys()) {
      if (this.table.size <= TOKENS_MAX) break;
      this.table.delete(old);
    }
    return token;
  }

  /** The binding, once; every later call, and every sibling token, refuses. */
  spend(token: string, channel: string, now: number): { ok: true; binding: TokenBinding } | { ok: false; why: Refusal } {
    const entry = TOKEN_SHAPE.test(token) ? this.table.get(token) : undefined;
    if (entry === undefined || entry.binding.channel !== channel) return { ok: false, why: 'unknown' };
    if (entry.void !== null) return { ok: false, why: entry.void };
    if (now >= entry.binding.issuedAt + this.ttl()) {
      entry.void = 'expired';
      return { ok: false, why: 'expired' };
    }
    this.voidRequest(entry.binding.request, 'answered');
    return { ok: true, binding: entry.binding };
  }

  /** After each evaluation: a request the rows no longer show open with that digest voids its tokens. */
  keepShown(shown: (key: string, request: string, digest: string) => boolean): void {
    for (const entry of this.table.values())
      if (entry.void === null && !shown(entry.binding.key, entry.binding.request, entry.binding.digest)) entry.void = 'changed';
  }

  /** Whether any token is still live (the runtime reconciles only then). */
  get live(): boolean {
    for (const entry of this.table.values()) if (entry.void === null) return true;
    return false;
  }

  private voidRequest(request: string, why: Refusal): void {
    for (const entry of this.table.values()) if (entry.binding.request === request && entry.void === null) entry.void = why;
  }
}

/** The answer a tap gives, as the answer channel takes it: a question's option is its only answer. */
export function phoneAnswer(decision: PhoneDecision): AnswerDecision {
  if (decision === 'allow') return { behavior: 'allow' };
  if (decision === 'deny') return { behavior: 'deny', message: null };
  return { behavior: 'answers', answers: [[decision.option]] };
}
