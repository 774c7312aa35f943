// What the fake model says, turn by turn: a scenario's script, in terms of no one wire format.

/** A tool call the model makes; each wire format spells it its own way. */
export interface ToolCall {
  name: string;
  input: Record<string, unknown>;
  /** A tool inside a namespace (Codex's multi_agent_v1 tools), where the wire format has them. */
  namespace?: string;
}

/** One reply to one main-model request. */
export type Reply =
  | { kind: 'text'; text: string }
  | { kind: 'tool'; call: ToolCall; text?: string }
  /** Starts a reply and holds the stream open until the scenario releases it (a running turn). */
  | { kind: 'hold'; text: string }
  /**
   * Answers every request with this HTTP status until the script moves on (the agent gives up).
   * `quota`: the body says a usage quota is spent (Google's RESOURCE_EXHAUSTED with its details,
   * or OpenAI's insufficient_quota), `retryDelay` the wait the server suggests ("3600s").
   */
  | {
      kind: 'error';
      status: number;
      message: string;
      quota?: { perDay: boolean; retryDelay?: string };
      /** Extra response headers (a usage limit's `retry-after`, `x-ratelimit-reset-*`). */
      headers?: Record<string, string>;
      /** The error's type and code where the wire has them (OpenAI's `insufficient_quota`). */
      code?: string;
    }
  /** Sends part of a reply, then drops the connection. */
  | { kind: 'cut'; text: string }
  /**
   * The account's usage limit, as each backend says it (Anthropic's unified rate-limit headers,
   * the Responses API's `usage_limit_reached`), resetting at `resetsAt` (epoch seconds); `plain`
   * leaves those out (a transient rate limit). Like an error it stays until `skip()`, or for `times` requests.
   */
  | { kind: 'limit'; resetsAt: number; window?: string; plain?: boolean; times?: number }
  /**
   * A spent quota: HTTP 429 with `retry-after` (seconds) and a quota error in the wire's own
   * words, to every request until the script moves on (as `error`), or to `times` requests.
   */
  | { kind: 'quota'; retryAfter: number; message: string; times?: number };

/** The replies of one scenario, in order; once they run out, every turn ends with plain text. */
export class Script {
  private readonly replies: Reply[] = [];
  /** Requests the limit at the head has answered so far (for its `times`). */
  private limitServed = 0;
  readonly fallback: Reply = { kind: 'text', text: 'Done.' };

  constructor(replies: readonly Reply[] = []) {
    this.replies.push(...replies);
  }

  /** Adds replies for the turns to come. */
  queue(...replies: Reply[]): this {
    this.replies.push(...replies);
    return this;
  }

  /** The reply for the next main request; an error reply stays until `skip()` (every retry fails). */
  next(): Reply {
    const head = this.replies[0];
    if (head === undefined) return this.fallback;
    if (head.kind === 'limit' || head.kind === 'quota') {
      this.limitServed += 1;
      if (head.times !== undefined && this.limitServed >= head.times) this.skip();
      return head;
    }
    if (head.kind !== 'error') this.replies.shift();
    return head;
  }

  /** Drops the reply at the head (ends a run of errors). */
  skip(): void {
    this.limitServed = 0;
    this.replies.shift();
  }

  get pending(): number {
    return this.replies.length;
  }
}
