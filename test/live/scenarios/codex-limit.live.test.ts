// Codex at its usage limit (issue 46): the lab's model answers the Responses API with 429
// usage_limit_reached (and Codex's x-codex-* usage headers); and a transient 429 it retries.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codex, codexHome } from '../lab/agents/codex';
import { goesOnAfterLimit, limitedUntil, resetInHours, resetPassed, usageLimits } from '../lab/limits';
import type { Scenario } from '../lab/scenario';
import { installed, scenarios, suiteName } from '../lab/suite';
import { waitFor } from '../../wait';

function rollouts(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.jsonl'))
    .map((name) => join(folder, name));
}

/** The rollout's text once it holds `marker`. */
async function rolloutWith(lab: Scenario, marker: string): Promise<string> {
  return waitFor(`a rollout record with ${marker}`, () =>
    rollouts(join(codexHome(lab.home), 'sessions'))
      .map((path) => readFileSync(path, 'utf8'))
      .find((text) => text.includes(marker)),
  );
}

describe.skipIf(!installed(codex))(`${suiteName(codex)}: usage limits`, () => {
  const start = scenarios(codex);

  for (const hooks of [false, true]) {
    it(`R80 the usage limit reads limited with the reset Codex prints (to the minute); past it limit-reset; a new prompt runs and finishes (hooks ${hooks ? 'on' : 'off'})`, async () => {
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
      await rolloutWith(lab, '"usage_limit_exceeded"');
      // 0.169.0 writes no reset field, only "try again at 11:02 PM" in the machine's zone.
      const row = await limitedUntil(lab, resetsAt, 60_000);
      // R83: the windows the x-codex-* headers gave, as the rollout's token_count wrote them.
      const windows = usageLimits(lab).find((limits) => limits.provider === 'codex')?.windows ?? [];
      expect(windows.map(({ name, usedPercent, windowMinutes, resetsAt: at }) => ({ name, usedPercent, windowMinutes, resetsAt: at }))).toEqual([
        { name: 'primary', usedPercent: 100, windowMinutes: 300, resetsAt: new Date(resetsAt * 1000).toISOString() },
        { name: 'secondary', usedPercent: 40, windowMinutes: 10080, resetsAt: new Date((resetsAt + 4 * 86_400) * 1000).toISOString() },
      ]);
      lab.record(
        `usage-limit-hooks-${hooks ? 'on' : 'off'}`,
        'a usage limit: task_complete with error.codex_error_info usage_limit_exceeded and "try again at <time>"',
        row,
      );
      resetPassed(lab, resetsAt);
      await goesOnAfterLimit(lab);
    });
  }

  it('R80 a transient 429 (rate_limit_exceeded) that Codex retries by itself reads running, then finished', async () => {
    const lab = await start({
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
