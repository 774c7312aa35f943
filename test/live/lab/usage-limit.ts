// The usage-limit reply the lab's model gives (issue 46): an OpenAI-compatible 429 whose body says
// the quota is spent (`insufficient_quota`) and whose headers say when to come back.
import { expect } from 'vitest';
import type { LabRow } from './lookout';
import type { Scenario } from './scenario';
import type { Reply } from './script';
import { waitFor } from '../../wait';
import { goesOnAfterLimit, limitedUntil, resetPassed } from './limits';

/** Seconds until the limit resets, as the 429's `retry-after` says. */
export const LIMIT_RESET_SECONDS = 3_600;

export const QUOTA_MESSAGE = 'You exceeded your current quota, please check your plan and billing details.';

/** Every request answered with this until the script moves on. */
export function usageLimitReply(retryAfter = LIMIT_RESET_SECONDS): Reply {
  return {
    kind: 'error',
    status: 429,
    message: QUOTA_MESSAGE,
    code: 'insufficient_quota',
    headers: { 'retry-after': String(retryAfter), 'x-ratelimit-reset-requests': `${retryAfter}s`, 'x-ratelimit-remaining-requests': '0' },
  };
}

/**
 * A spent quota with no `retry-after`, only OpenAI's reset duration (`x-ratelimit-reset-requests`),
 * `resetSeconds` ahead: the agent backs off on its own clock and, giving up, keeps the headers.
 */
export function quotaResetReply(resetSeconds: number): Reply {
  const hours = Math.floor(resetSeconds / 3600);
  const minutes = Math.floor((resetSeconds % 3600) / 60);
  return {
    kind: 'error',
    status: 429,
    message: QUOTA_MESSAGE,
    code: 'insufficient_quota',
    headers: { 'x-ratelimit-reset-requests': `${String(hours)}h${String(minutes)}m${String(resetSeconds % 60)}s`, 'x-ratelimit-remaining-requests': '0' },
  };
}

/**
 * The model answers the limit until the agent gives up (opencode and Kilo heed a short retry-after:
 * six tries): running while it retries, then the row the agent's saved error gives.
 */
export async function limitedAfterRetries(lab: Scenario, timeout = 150_000): Promise<LabRow> {
  await lab.prompt('this will hit the limit');
  await waitFor(
    'a retry',
    () => (lab.model.mainRequests.length > 1 ? true : undefined),
    () => lab.tmux.screen(),
    { timeout: 60_000 },
  );
  const retrying = await lab.expectRow('running while it retries', (row) => row.observed.state !== 'idle');
  expect(retrying.observed).toMatchObject({ state: 'running', reason: 'turn-open' });
  return lab.expectRow('the turn ended', (row) => row.observed.state !== 'running', timeout);
}

/** opencode and Kilo heed an hour's retry-after: they wait it out (the screen counts down), the row reads running. */
export async function waitingOutTheLimit(lab: Scenario): Promise<LabRow> {
  await lab.prompt('this will hit the limit');
  await lab.tmux.waitForScreen('the wait for the reset', (screen) => /retrying in \d+m/.test(screen));
  const row = await lab.expectRow('running', (row) => row.observed.state === 'running');
  expect(row.observed.reason).toBe('turn-open');
  expect(lab.model.mainRequests.length).toBe(1);
  return row;
}

/**
 * A spent quota with no `retry-after` and a reset three hours on: the agent (opencode, Kilo) backs
 * off by itself, then saves the error with its headers. The row reads limited until the header's
 * reset (measured from the error's own time, between the prompt and now), `limit-reset` past it,
 * and a new prompt runs and finishes. Records the limited moment under `usage-limit`.
 */
export async function limitedUntilHeaderReset(lab: Scenario): Promise<void> {
  const asked = Math.floor(Date.now() / 1000);
  await limitedAfterRetries(lab, 240_000);
  const row = await limitedUntil(lab, asked + 3 * 3600, Date.now() - asked * 1000 + 1_000, /exceeded your current quota/);
  expect(row.observed.detail).toBe(QUOTA_MESSAGE);
  lab.record(
    'usage-limit',
    'a 429 insufficient_quota with x-ratelimit-reset-requests 3h retried six times, then an APIError with statusCode 429, responseHeaders and responseBody',
    row,
  );
  resetPassed(lab, Date.parse(row.resetsAt ?? '') / 1000);
  await goesOnAfterLimit(lab, true);
}
