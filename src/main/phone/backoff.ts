// R94's backoff, shared by sending and listening: 5 s doubling to 5 min, or what the service asked.

const BACKOFF_FIRST_MS = 5000;
const BACKOFF_CAP_MS = 300_000;

/** Timers injected so tests step time instead of sleeping. */
export interface Timers {
  set(run: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export const realTimers: Timers = {
  set: (run, ms) => {
    const timer = setTimeout(run, ms);
    // A retry waiting never keeps a finished command alive.
    timer.unref();
    return timer;
  },
  clear: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export class Backoff {
  private next: number;

  constructor(
    private readonly first = BACKOFF_FIRST_MS,
    private readonly cap = BACKOFF_CAP_MS,
  ) {
    this.next = first;
  }

  /** The wait before the next try: the service's Retry-After when it gave one (capped), else the doubling. */
  delay(retryAfterSeconds: number | null): number {
    const own = this.next;
    this.next = Math.min(this.next * 2, this.cap);
    return retryAfterSeconds !== null && retryAfterSeconds > 0 ? Math.min(retryAfterSeconds * 1000, this.cap) : own;
  }

  reset(): void {
    this.next = this.first;
  }
}

/** One line for a failure, never the token (a URL or message might carry one). */
export function failureText(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}
