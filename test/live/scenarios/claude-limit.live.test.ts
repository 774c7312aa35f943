// Claude Code at its usage limit (issue 46): signed in with a subscription's OAuth token against the
// lab's model answering 429 with Anthropic's unified rate-limit headers; and a transient 429 it
// retries by itself.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claude, claudeSubscription } from '../lab/agents/claude';
import { goesOnAfterLimit, limitedUntil, resetInHours, resetPassed } from '../lab/limits';
import type { Scenario } from '../lab/scenario';
import { installed, scenarios, suiteName } from '../lab/suite';
import { waitFor } from '../../wait';

const LIMIT_ON_SCREEN = /You've hit your 5-hour limit/;

/** Waits until Claude's hook for `marker` (an event name, a notification type) is in Lookout's spool. */
async function hookLanded(lab: Scenario, marker: string): Promise<void> {
  const spool = join(lab.home.lookoutHome, 'spool', 'claude.jsonl');
  await waitFor(
    `the ${marker} hook in the spool`,
    () => (existsSync(spool) && readFileSync(spool, 'utf8').includes(marker) ? true : undefined),
    () => (existsSync(spool) ? readFileSync(spool, 'utf8').slice(-2000) : '(no spool)'),
  );
}

describe.skipIf(!installed(claudeSubscription))(`${suiteName(claudeSubscription)}: usage limits`, () => {
  const start = scenarios(claudeSubscription);
  const startWithKey = scenarios(claude);

  for (const hooks of [false, true]) {
    it(`R80 the 5-hour limit reads limited with the reset the API sent; past it limit-reset; a new prompt runs and finishes (hooks ${hooks ? 'on' : 'off'})`, async () => {
      const resetsAt = resetInHours(3);
      const lab = await start({
        name: `limit-${String(hooks)}`,
        hooks,
        replies: [
          { kind: 'limit', resetsAt, times: 1 },
          { kind: 'hold', text: 'Back at it…' },
        ],
      });
      await lab.prompt('hit the limit');
      await lab.tmux.waitForScreen('the limit', (screen) => LIMIT_ON_SCREEN.test(screen));
      // With hooks, StopFailure {error: "rate_limit"} lands ~30 ms after the record: the limit must outrank it.
      if (hooks) await hookLanded(lab, '"StopFailure"');
      // 2.1.328 writes the reset in the record's own fields (quotaLimits.resetsAt): exact.
      const row = await limitedUntil(lab, resetsAt, 0);
      lab.record(
        `usage-limit-hooks-${hooks ? 'on' : 'off'}`,
        'a 5-hour usage limit (OAuth sign-in): the API-error record with apiError usage_limit_reached, then the registry idle',
        row,
      );
      // No idle_prompt follows a limit in 2.1.328 (none in 120 s: it waits to continue by itself at the
      // reset); the spool's fold keeps a StopFailure over a later one (test/providers/usage-limits.test.ts).
      resetPassed(lab, resetsAt);
      await goesOnAfterLimit(lab);
    });
  }

  it('R80 at the reset Claude goes on by itself ("continuing automatically"): running again with no new prompt, then finished', async () => {
    // Soon enough to wait for (2.1.328 went on ~50 s after a reset), late enough to read limited first.
    const resetsAt = Math.floor(Date.now() / 1000) + 15;
    const lab = await start({
      name: 'limit-continues',
      replies: [
        { kind: 'limit', resetsAt, times: 1 },
        { kind: 'hold', text: 'Continuing…' },
      ],
    });
    await lab.prompt('hit a short limit');
    await lab.tmux.waitForScreen('continuing automatically', (screen) => /continuing automatically/i.test(screen));
    await limitedUntil(lab, resetsAt, 0);
    // Its own retry at the reset is the evidence the limit lifted: the row reads running, not limit-reset.
    // The CLI goes on by its own timer, some time after the reset (50 s to over 90 s seen here).
    await lab.held(1, 300_000);
    await lab.expectRow('running again by itself', (row) => row.observed.state === 'running');
    await lab.releaseHold();
    await lab.expectRow('finished', (row) => row.observed.state === 'idle' && row.observed.reason === 'turn-finished');
  }, 420_000);

  it('R80 signed in, a 429 without the unified headers that never clears is not a usage limit: error/api-error', async () => {
    const lab = await start({ name: 'rate-limit-gives-up', replies: [{ kind: 'limit', resetsAt: 0, plain: true }] });
    await lab.prompt('keep being rate limited');
    await lab.tmux.waitForScreen('the API error', (screen) => screen.includes('API Error'));
    const row = await lab.expectRow('error', (row) => row.observed.state === 'error');
    expect(row.observed.reason).toBe('api-error');
    expect(lab.model.mainRequests.length).toBeGreaterThanOrEqual(2);
  });

  it('R80 a transient 429 (no unified headers) that Claude retries by itself reads running, then finished', async () => {
    const lab = await startWithKey({
      name: 'rate-limit-retried',
      replies: [
        { kind: 'limit', resetsAt: 0, plain: true, times: 1 },
        { kind: 'hold', text: 'Retried and working…' },
      ],
    });
    await lab.prompt('retry after a 429');
    await lab.held();
    expect(lab.model.mainRequests.length).toBeGreaterThanOrEqual(2);
    await lab.expectRow('running', (row) => row.observed.state === 'running');
    await lab.releaseHold();
    await lab.expectRow('finished', (row) => row.observed.state === 'idle' && row.observed.reason === 'turn-finished');
  });
});
