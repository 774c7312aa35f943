// The runtime carries out the engine's notification decisions: coalesced, at most once per claim
// across restarts (the ledger), never for muted rows, and a failing notifier is reported once.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { NotificationPlan } from '../../../src/engine';
import type { Notifier } from '../../../src/main/notify/notifier';
import { Runtime } from '../../../src/main/runtime/runtime';
import { fixtures } from '../../providers/fixture-roots';
import { fixtureHomes, fixturesInRepo } from '../fixture-home';

const { base, home } = fixtureHomes('lookout-notify-');
const NOW = Date.parse('2026-11-29T12:02:00.000Z');
const key = (name: string) => fixtures('claude').find((item) => item.name === name)?.meta.sessionKey ?? '';

class Recorder implements Notifier {
  readonly plans: NotificationPlan[] = [];
  constructor(private readonly fail = false) {}
  send(plan: NotificationPlan): Promise<void> {
    this.plans.push(plan);
    return this.fail ? Promise.reject(new Error('Cannot autolaunch D-Bus without X11 $DISPLAY')) : Promise.resolve();
  }
}

async function once(env: Record<string, string>, notifier: Notifier, problems: string[] = []): Promise<Runtime> {
  const runtime = new Runtime({ env, clock: () => NOW, notifier, onProblem: (line) => problems.push(line) });
  await runtime.start();
  await runtime.dispose();
  return runtime;
}

describe('runtime notifications', () => {
  it('R42 claims gained together make one notification; R41 the ledger keeps them from repeating after a restart', async () => {
    const env = home(['question-pending', 'failed-turn']);
    const first = new Recorder();
    await once(env, first);
    expect(first.plans).toHaveLength(1);
    expect(first.plans[0]?.title).toBe('2 sessions want you (1 need you)');
    expect(first.plans[0]?.keys.sort()).toEqual([key('failed-turn'), key('question-pending')].sort());
    const ledger = JSON.parse(readFileSync(join(env.LOOKOUT_HOME ?? '', 'store.json'), 'utf8')).notified.map((entry: { id: string }) => entry.id);
    expect(ledger).toEqual(expect.arrayContaining(first.plans[0]?.claimIds ?? []));
    const second = new Recorder();
    await once(env, second);
    expect(second.plans).toEqual([]);
  });

  it('R60 a muted session is not notified', async () => {
    const env = home(['question-pending']);
    const runtime = new Runtime({ env, clock: () => NOW, notifier: null, onProblem: () => undefined });
    runtime.facts.mute(key('question-pending'), null, NOW);
    await runtime.dispose();
    const recorder = new Recorder();
    await once(env, recorder);
    expect(recorder.plans).toEqual([]);
  });

  it('a notifier that fails is reported once, and the runtime goes on', async () => {
    const env = home(['question-pending']);
    const problems: string[] = [];
    const runtime = new Runtime({ env, clock: () => NOW, notifier: new Recorder(true), onProblem: (line) => problems.push(line) });
    await runtime.start();
    runtime.evaluateNow();
    // The failing notifier rejects asynchronously: wait for its one report.
    for (let waited = 0; waited < 20_000 && !problems.some((line) => line.includes('notifications are unavailable')); waited += 20)
      await new Promise((resolve) => setTimeout(resolve, 20));
    runtime.facts.review(key('question-pending'), 'flagged', null, NOW);
    runtime.evaluateNow();
    expect(problems.filter((line) => line.includes('notifications are unavailable'))).toHaveLength(1);
    expect(runtime.evaluation?.snapshot.sessions[0]?.review.state).toBe('flagged');
    await runtime.dispose();
  });
});

describe('finish notices and the working tree', () => {
  it('R40 R41 a long turn that left changes is told once, as ready for review (not first as finished)', async () => {
    const env = home(['long-finish']);
    fixturesInRepo(env, base);
    const recorder = new Recorder();
    const runtime = new Runtime({ env, clock: () => Date.parse('2026-11-29T12:01:10.000Z'), notifier: recorder, onProblem: () => undefined });
    await runtime.start();
    // The notification waits for git's answer about the working tree (slow on a loaded machine).
    for (let waited = 0; waited < 20_000 && recorder.plans.length === 0; waited += 50) await new Promise((done) => setTimeout(done, 50));
    await runtime.dispose();
    expect(recorder.plans.map((plan) => plan.title)).toEqual([expect.stringContaining('is ready for review')]);
    expect(recorder.plans[0]?.body).toBe('finished in 1m, 1 file changed');
  });
});
