// The account's usage limit as each backend answers it: a 429 with the words and fields the
// agents read (Anthropic's unified rate-limit headers; the Responses API's usage_limit_reached,
// which the chat and Gemini wires get too until an agent of theirs is taught its own).
import type { ServerResponse } from 'node:http';
import type { Reply } from './script';

type Limit = Extract<Reply, { kind: 'limit' }>;
type LimitWire = 'anthropic' | 'responses' | 'chat' | 'gemini';

/** Anthropic's short names for its windows, as its per-window headers spell them. */
const WINDOW_ABBREVIATION: Record<string, string> = { five_hour: '5h', seven_day: '7d' };

export function answerLimit(res: ServerResponse, wire: LimitWire, limit: Limit): void {
  const now = Math.floor(Date.now() / 1000);
  const inSeconds = Math.max(0, limit.resetsAt - now);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  let body: unknown;
  if (limit.plain === true) {
    // A transient rate limit: a short retry-after and nothing about the account's allowance.
    headers['retry-after'] = '1';
    body =
      wire === 'anthropic'
        ? { type: 'error', error: { type: 'rate_limit_error', message: 'Rate limited (lab)' } }
        : { error: { type: 'rate_limit_exceeded', message: 'Rate limit reached (lab), please retry', code: 'rate_limit_exceeded' } };
  } else if (wire === 'anthropic') {
    const window = limit.window ?? 'five_hour';
    const short = WINDOW_ABBREVIATION[window] ?? window;
    Object.assign(headers, {
      'anthropic-ratelimit-unified-status': 'rejected',
      'anthropic-ratelimit-unified-reset': String(limit.resetsAt),
      'anthropic-ratelimit-unified-representative-claim': window,
      [`anthropic-ratelimit-unified-${short}-status`]: 'rejected',
      [`anthropic-ratelimit-unified-${short}-reset`]: String(limit.resetsAt),
      [`anthropic-ratelimit-unified-${short}-utilization`]: '1.0',
    });
    body = { type: 'error', error: { type: 'rate_limit_error', message: "This request would exceed your account's rate limit. Please try again later." } };
  } else {
    // Codex reads its usage windows from these headers (they land in the rollout's rate_limits).
    Object.assign(headers, {
      'x-codex-primary-used-percent': '100',
      'x-codex-primary-window-minutes': '300',
      'x-codex-primary-reset-at': String(limit.resetsAt),
      'x-codex-secondary-used-percent': '40',
      'x-codex-secondary-window-minutes': '10080',
      'x-codex-secondary-reset-at': String(limit.resetsAt + 4 * 86_400),
    });
    body = {
      error: {
        type: 'usage_limit_reached',
        message: 'The usage limit has been reached',
        plan_type: 'plus',
        resets_at: limit.resetsAt,
        resets_in_seconds: inSeconds,
      },
    };
  }
  res.writeHead(429, headers);
  res.end(JSON.stringify(body));
}
