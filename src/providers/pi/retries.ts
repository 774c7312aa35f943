// Pi's own retry rule (agent-session.js, 0.73.1): an error turn whose words match is retried with
// backoff, `retry.maxRetries` times (3 unless set); every attempt is written, the last one unmarked.
// So the file says "failed" only once the attempts are spent, or for an error Pi never retries.

/** Pi's test of a retryable error, verbatim in effect: overloaded, rate limits, 5xx, network words. */
const RETRYABLE =
  /overloaded|provider.?returned.?error|rate.?limit|too many requests|429|500|502|503|504|service.?unavailable|server.?error|internal.?error|network.?error|connection.?error|connection.?refused|connection.?lost|websocket.?closed|websocket.?error|other side closed|fetch failed|upstream.?connect|reset before headers|socket hang up|ended without|http2 request did not get a response|timed? out|timeout|terminated|retry delay/i;

/** A context overflow: Pi compacts and goes on, it does not fail the turn on it. */
const CONTEXT_OVERFLOW = /context.?(length|window|overflow)|too many tokens|prompt is too long|maximum context/i;

export interface RetrySettings {
  enabled: boolean;
  maxRetries: number;
}

export const DEFAULT_RETRY: RetrySettings = { enabled: true, maxRetries: 3 };

/** What an error turn means, given how many error turns in a row came before it (this one included). */
export function errorOutcome(words: string, attempts: number, retry: RetrySettings): 'retrying' | 'compacting' | 'final' {
  if (CONTEXT_OVERFLOW.test(words)) return 'compacting';
  if (!retry.enabled || !RETRYABLE.test(words)) return 'final';
  return attempts > retry.maxRetries ? 'final' : 'retrying';
}
