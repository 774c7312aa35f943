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
  /** Answers every request with this HTTP status until the script moves on (the agent gives up). */
  | { kind: 'error'; status: number; message: string }
  /** Sends part of a reply, then drops the connection. */
  | { kind: 'cut'; text: string }
  /**
   * A usage limit: HTTP 429 with `retry-after` (seconds) and a quota error in the wire's own
   * words, to every request until the script moves on (as `error`), or to `times` requests.
   */
  | { kind: 'limit'; retryAfter: number; message: string; times?: number };

/** The replies of one scenario, in order; once they run out, every turn ends with plain text. */
export class Script {
  private readonly replies: Reply[] = [];
  /** How many requests the reply at the head has answered (a limit with `times`). */
  private served = 0;
  readonly fallback: Reply = { kind: 'text', text: 'Done.' };

  constructor(replies: readonly Reply[] = []) {
    this.replies.push(...replies);
  }

  /** Adds replies for the turns to come. */
  then(...replies: Reply[]): this {
    this.replies.push(...replies);
    return this;
  }

  /** The reply for the next main request; an error reply stays until `skip()` (every retry fails). */
  next(): Reply {
    const head = this.replies[0];
    if (head === undefined) return this.fallback;
    if (head.kind === 'limit' && head.times !== undefined) {
      // A limit met this many times, then the script goes on by itself.
      this.served += 1;
      if (this.served >= head.times) this.skip();
    } else if (head.kind !== 'error' && head.kind !== 'limit') this.replies.shift();
    return head;
  }

  /** Drops the reply at the head (ends a run of errors). */
  skip(): void {
    this.served = 0;
    this.replies.shift();
  }

  get pending(): number {
    return this.replies.length;
  }
}
