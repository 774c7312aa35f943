// Issue 15: a notification's actions (Open, Mute 1 hour, Mark reviewed) carried out by the runtime,
// and only on sessions whose claim is still the one notified. Fixtures: Claude Code 2.1.143.
import { appendFileSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rowClaimId, stillNotified } from '../../../src/engine';
import { Runtime } from '../../../src/main/runtime/runtime';
import { fixtures } from '../../providers/fixture-roots';
import { fixtureHomes } from '../fixture-home';
import { until } from '../../wait';
import { Catcher } from '../catching-notifier';

const { home } = fixtureHomes('lookout-actions-');
const NOW = Date.parse('2026-11-29T12:02:00.000Z');
const HOUR = 3_600_000;
const key = (name: string) => fixtures('claude').find((item) => item.name === name)?.meta.sessionKey ?? '';

async function started(names: string[]) {
  const env = home(names);
  const catcher = new Catcher();
  const problems: string[] = [];
  const opened: (readonly string[])[] = [];
  const runtime = new Runtime({ env, clock: () => NOW, notifier: catcher, onProblem: (line) => problems.push(line), onOpen: (keys) => opened.push(keys) });
  await runtime.start();
  const store = () =>
    JSON.parse(readFileSync(join(env.LOOKOUT_HOME ?? '', 'store.json'), 'utf8')) as {
      mutes: Record<string, { until: string | null }>;
      reviews: Record<string, { state: string }>;
    };
  return { env, catcher, problems, opened, runtime, store };
}

describe('notification actions (issue 15)', () => {
  it('a row claim id is the id the ledger gave the claim, so an action can tell the claim is still the one notified', async () => {
    const { catcher, runtime } = await started(['question-pending', 'failed-turn']);
    const plan = catcher.sent[0]?.plan;
    const rows = runtime.snapshot?.sessions ?? [];
    expect([...(plan?.claimIds ?? [])].sort()).toEqual(rows.flatMap((row) => rowClaimId(row) ?? []).sort());
    expect(plan === undefined ? null : stillNotified(plan, rows)).toEqual({ current: plan?.keys, changed: [] });
    await runtime.dispose();
  });

  it('Mute 1 hour mutes every session the notification named, for an hour from now; they leave the count', async () => {
    const { catcher, runtime, store } = await started(['question-pending', 'failed-turn']);
    expect(runtime.snapshot?.attention.count).toBe(2);
    catcher.sent[0]?.act('mute-1h');
    await until('the runtime to act', () => runtime.snapshot?.attention.count === 0);
    const mutes = store().mutes;
    expect(Object.keys(mutes).sort()).toEqual([key('failed-turn'), key('question-pending')].sort());
    expect(Object.values(mutes).map((mute) => mute.until)).toEqual([new Date(NOW + HOUR).toISOString(), new Date(NOW + HOUR).toISOString()]);
    await runtime.dispose();
  });

  it('Mark reviewed on a session that moved on since (the question was answered) does nothing, and says so', async () => {
    const { env, catcher, runtime, store, problems } = await started(['question-pending']);
    const project = join(env.CLAUDE_CONFIG_DIR ?? '', 'projects', '-home-me-app');
    const file = join(project, readdirSync(project)[0] ?? '');
    const base = {
      isSidechain: false,
      userType: 'external',
      entrypoint: 'cli',
      cwd: '/home/me/app',
      sessionId: key('question-pending').slice('claude:'.length),
      version: '2.1.143',
      gitBranch: 'main',
    };
    appendFileSync(
      file,
      `${JSON.stringify({ ...base, parentUuid: 'f1000000-0000-4000-8000-000000000003', type: 'user', uuid: 'f1000000-0000-4000-8000-000000000004', timestamp: '2026-11-29T12:01:00.000Z', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_q2', content: 'Postgres' }] } })}\n`,
    );
    await runtime.sync(undefined);
    await until('the runtime to act', () => runtime.snapshot?.sessions[0]?.observed.reason !== 'question-pending');
    catcher.sent[0]?.act('reviewed');
    await until('the runtime to act', () => problems.length > 0);
    expect(problems).toEqual([`lookout: "Mark reviewed" was not applied to ${key('question-pending')}: it has changed since the notification`]);
    expect(store().reviews[key('question-pending')]).toBeUndefined();
    await runtime.dispose();
  });

  it('Mark reviewed on a session still as notified: reviewed', async () => {
    const { catcher, runtime, store } = await started(['question-pending']);
    catcher.sent[0]?.act('reviewed');
    await until('the runtime to act', () => store().reviews[key('question-pending')]?.state === 'reviewed');
    await runtime.dispose();
  });

  it('Open: one session opens it; a digest hands over all it named (the tray shows them in the popover)', async () => {
    const single = await started(['question-pending']);
    single.catcher.sent[0]?.act('open');
    expect(single.opened).toEqual([[key('question-pending')]]);
    await single.runtime.dispose();
    const digest = await started(['question-pending', 'failed-turn']);
    digest.catcher.sent[0]?.act('open');
    expect([...(digest.opened[0] ?? [])].sort()).toEqual([key('failed-turn'), key('question-pending')].sort());
    await digest.runtime.dispose();
  });
});
