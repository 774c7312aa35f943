// Issue 16: what quiet hours held is kept in LOOKOUT_HOME, so a restart within them still tells the
// digest when they end (R41: each claim still told once). A clock the test moves; a fresh runtime
// on the same home stands for the restart.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Runtime } from '../../../src/main/runtime/runtime';
import { Shown } from '../shown-notifier';
import { until } from '../../wait';
import { heldPath } from '../../../src/main/store/held-store';
import { fixtureHomes } from '../fixture-home';

const { home } = fixtureHomes('lookout-quiet-restart-');
const AT = (time: string): number => Date.parse(`2026-11-29T${time}.000Z`);
const QUESTION = 'claude:c1a00000-0000-4000-8000-000000000029';
const FAILED = 'claude:c1a00000-0000-4000-8000-000000000006';

/** A home with a question and a failed turn, quiet 12:00–12:05 UTC, and a fast beat to see the end soon. */
function quietHome(): Record<string, string> {
  const env = home(['question-pending', 'failed-turn']);
  mkdirSync(env.LOOKOUT_HOME ?? '', { recursive: true });
  writeFileSync(
    join(env.LOOKOUT_HOME ?? '', 'settings.json'),
    JSON.stringify({ quietHours: { from: '12:00', to: '12:05', timeZone: 'UTC' }, timings: { beat: 250 } }),
  );
  return env;
}

/** One run within the quiet: its notification held (and kept), nothing shown; then it ends. */
async function quietRun(env: Record<string, string>, clock: () => number): Promise<void> {
  const shown = new Shown();
  const runtime = new Runtime({ env, clock, notifier: shown, onProblem: () => undefined });
  await runtime.start();
  expect(runtime.snapshot?.attention.count).toBe(2);
  expect(shown.plans).toEqual([]);
  expect(existsSync(heldPath(env.LOOKOUT_HOME ?? ''))).toBe(true);
  await runtime.dispose();
}

describe('the quiet digest across a restart (issue 16)', () => {
  it('R41 held before a restart within quiet hours, told in the digest when they end, once', async () => {
    const env = quietHome();
    let now = AT('12:02:00');
    await quietRun(env, () => now);
    // The restart, still within the quiet hours: nothing is shown, nothing is told again.
    now = AT('12:03:00');
    const shown = new Shown();
    const problems: string[] = [];
    const runtime = new Runtime({ env, clock: () => now, notifier: shown, onProblem: (line) => problems.push(line) });
    await runtime.start();
    runtime.evaluateNow();
    expect(shown.plans).toEqual([]);
    now = AT('12:05:00');
    // The beat sees the end by itself, and the digest names what the run before held.
    await until('the notification', () => shown.plans.length === 1);
    expect(shown.plans[0]?.title).toBe('While quiet: 2 sessions wanted you');
    expect([...(shown.plans[0]?.keys ?? [])].sort()).toEqual([FAILED, QUESTION].sort());
    expect(shown.plans[0]?.body).toContain('2 sessions want you (1 need you)');
    expect(existsSync(heldPath(env.LOOKOUT_HOME ?? ''))).toBe(false);
    runtime.evaluateNow();
    expect(shown.plans).toHaveLength(1);
    expect(problems).toEqual([]);
    await runtime.dispose();
  });

  it('a session gone by the end of the quiet is not in the digest', async () => {
    const env = quietHome();
    let now = AT('12:02:00');
    await quietRun(env, () => now);
    // The failed session's transcript is deleted while Lookout is down.
    rmSync(join(env.CLAUDE_CONFIG_DIR ?? '', 'projects', '-home-me-app', 'c1a00000-0000-4000-8000-000000000006.jsonl'));
    now = AT('12:06:00');
    const shown = new Shown();
    const runtime = new Runtime({ env, clock: () => now, notifier: shown, onProblem: () => undefined });
    await runtime.start();
    await until('the notification', () => shown.plans.length === 1);
    expect(shown.plans[0]?.title).toBe('While quiet: 1 session wanted you');
    expect(shown.plans[0]?.keys).toEqual([QUESTION]);
    await runtime.dispose();
  });
});
