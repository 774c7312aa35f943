// Issue 16: while quiet (quiet hours in settings.json, or the tray's pause), nothing is shown but
// the count still counts; when it ends, one digest tells what happened. A clock the test moves.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Runtime } from '../../../src/main/runtime/runtime';
import { Shown } from '../shown-notifier';
import { until } from '../../wait';
import { fixtureHomes } from '../fixture-home';

const { home } = fixtureHomes('lookout-quiet-');
const NOW = Date.parse('2026-11-29T12:02:00.000Z');

function quietHome(quietHours: object | null): Record<string, string> {
  const env = home(['question-pending', 'failed-turn']);
  mkdirSync(env.LOOKOUT_HOME ?? '', { recursive: true });
  // A fast beat, so the end of the quiet is seen soon after the clock passes it.
  writeFileSync(join(env.LOOKOUT_HOME ?? '', 'settings.json'), JSON.stringify({ quietHours, timings: { beat: 250 } }));
  return env;
}

describe('quiet hours and the pause (issue 16)', () => {
  it('within quiet hours nothing is shown, the count still counts; at their end one digest, once', async () => {
    const env = quietHome({ from: '12:00', to: '12:05', timeZone: 'UTC' });
    let now = NOW;
    const shown = new Shown();
    const runtime = new Runtime({ env, clock: () => now, notifier: shown, onProblem: () => undefined });
    await runtime.start();
    expect(runtime.snapshot?.attention.count).toBe(2);
    runtime.evaluateNow();
    expect(shown.plans).toEqual([]);
    // The claims are in the ledger: none comes back on its own after the quiet.
    const ledger = JSON.parse(readFileSync(join(env.LOOKOUT_HOME ?? '', 'store.json'), 'utf8')).notified.length;
    expect(ledger).toBe(2);
    now = Date.parse('2026-11-29T12:05:00.000Z') - 1;
    runtime.evaluateNow();
    expect(shown.plans).toEqual([]);
    now = Date.parse('2026-11-29T12:05:00.000Z');
    // The beat sees the end by itself (nothing else changes).
    await until('the notification', () => shown.plans.length === 1);
    expect(shown.plans[0]?.title).toBe('While quiet: 2 sessions wanted you');
    expect(shown.plans[0]?.body.split('\n')).toHaveLength(1);
    expect(shown.plans[0]?.body).toContain('2 sessions want you (1 need you)');
    // Once: another evaluation tells nothing more.
    runtime.evaluateNow();
    expect(shown.plans).toHaveLength(1);
    await runtime.dispose();
  });

  it('just before the end it is still quiet; a pause from the tray is quiet the same way, and resuming tells the digest', async () => {
    const env = quietHome(null);
    let now = NOW;
    const shown = new Shown();
    const runtime = new Runtime({ env, clock: () => now, notifier: shown, onProblem: () => undefined });
    runtime.facts.pause(NOW + 3_600_000, NOW);
    await runtime.start();
    now = NOW + 3_600_000 - 1;
    // An evaluation carries out what is due at once: a millisecond before the end, nothing.
    runtime.evaluateNow();
    expect(shown.plans).toEqual([]);
    runtime.facts.pause(null, now);
    runtime.evaluateNow();
    expect(shown.plans).toHaveLength(1);
    expect(shown.plans[0]?.title).toBe('While quiet: 2 sessions wanted you');
    await runtime.dispose();
  });
});
