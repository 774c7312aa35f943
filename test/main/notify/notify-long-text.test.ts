// Issue 25 item 2: long notification text killed `watch --notify`. A 200 KB branch in a transcript
// went whole into notify-send's argv; over the kernel's 128 KB per argument, spawn threw outside
// its promise and the process exited. Now the text is cut, and a spawn that throws is one failure.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { NotificationPlan } from '../../../src/engine';
import type { Notifier } from '../../../src/main/notify/notifier';
import { LibnotifyNotifier } from '../../../src/main/notify/libnotify';
import { Runtime } from '../../../src/main/runtime/runtime';
import { fakeNotifySend } from '../fake-notify-send';
import { until } from '../../wait';
import { fixtureHomes } from '../fixture-home';
import { WatchProcess } from '../watch-process';

const { base, home } = fixtureHomes('lookout-notify-long-');
const NOW = '2026-11-29T12:02:00.000Z';
const TRANSCRIPT = join('projects', '-home-me-app', 'c1a00000-0000-4000-8000-000000000029.jsonl');
const plan: NotificationPlan = { claimIds: ['k|needs-you|1'], keys: ['claude:k'], title: 'Claude · app needs you', body: 'asks: which?' };

let running: WatchProcess | null = null;
afterEach(async () => {
  if (running !== null && running.child.exitCode === null) await running.stop();
  running = null;
});

describe('issue 25 item 2: long notification text', () => {
  it('issue 25 item 2: a 200 KB git branch in a transcript leaves watch --notify running, its notification cut to a sane length', async () => {
    const env = home(['question-pending']);
    const transcript = join(env.CLAUDE_CONFIG_DIR ?? '', TRANSCRIPT);
    writeFileSync(transcript, readFileSync(transcript, 'utf8').replaceAll('"gitBranch":"main"', `"gitBranch":"${'b'.repeat(200_000)}"`));
    const fake = fakeNotifySend(join(base, 'branch'));
    const watch = new WatchProcess(['--notify', '--now', NOW], { ...env, PATH: `${fake.bin}:${process.env.PATH ?? ''}` });
    running = watch;
    await until('the notification', () => fake.calls().length > 0 || watch.child.exitCode !== null);
    expect(watch.child.exitCode, watch.stderr).toBeNull();
    const [call] = fake.calls();
    const text = call?.slice(call.indexOf('--') + 1) ?? [];
    expect(text).toHaveLength(2);
    const [title = '', body = ''] = text;
    expect(title).toMatch(/^Claude · app \(b+…\) needs you$/);
    expect(title.length).toBeLessThanOrEqual(300);
    expect(body.length).toBeLessThanOrEqual(2000);
    // Still running, and still reading: the row is there with its branch.
    const snapshot = await watch.until((shown) => shown.sessions.length === 1);
    expect(snapshot.sessions[0]?.branch?.length).toBe(200_000);
  }, 60_000);

  it("issue 25 item 2: a notify-send that cannot start (a string over the kernel's 128 KB) is a rejected send, never a throw", async () => {
    // spawn throws E2BIG at once for an environment string over 128 KB, as for an argument. A
    // notify-send must be there to exec (without one, spawn fails ENOENT before the size counts).
    const path = process.env.PATH;
    process.env.PATH = `${fakeNotifySend(join(base, 'oversized')).bin}:${path ?? ''}`;
    process.env.LOOKOUT_TEST_OVERSIZED = 'x'.repeat(200_000);
    try {
      let sent: Promise<void> = Promise.resolve();
      expect(() => {
        sent = new LibnotifyNotifier().send(plan, () => undefined);
      }).not.toThrow();
      await expect(sent).rejects.toThrow(/could not run notify-send: .*E2BIG/);
    } finally {
      delete process.env.LOOKOUT_TEST_OVERSIZED;
      if (path === undefined) delete process.env.PATH;
      else process.env.PATH = path;
    }
  });

  it('issue 25 item 2: a notifier that throws instead of rejecting is reported once; the runtime goes on', async () => {
    class Throwing implements Notifier {
      sends = 0;
      send(): Promise<void> {
        this.sends += 1;
        throw new Error('spawn E2BIG');
      }
    }
    const notifier = new Throwing();
    const problems: string[] = [];
    const runtime = new Runtime({
      env: home(['question-pending', 'failed-turn']),
      clock: () => Date.parse(NOW),
      notifier,
      onProblem: (line) => problems.push(line),
    });
    await runtime.start();
    runtime.evaluateNow();
    await until('the notification', () => problems.some((line) => line.includes('notifications are unavailable')));
    expect(notifier.sends).toBeGreaterThan(0);
    expect(problems.filter((line) => line.includes('notifications are unavailable (spawn E2BIG)'))).toHaveLength(1);
    expect(runtime.evaluation?.snapshot.sessions).toHaveLength(2);
    await runtime.dispose();
  });
});
