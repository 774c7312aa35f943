// R82 through the runtime, on the files each agent wrote in the live lab at a usage limit: one
// notice per provider when the limit stops work, one at each reset the agent named, each once (the
// ledger holds across a restart), and nothing resumes a session (R84: Lookout only tells).
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { NotificationPlan } from '../../../src/engine';
import type { Notifier } from '../../../src/main/notify/notifier';
import { Runtime } from '../../../src/main/runtime/runtime';
import { waitFor } from '../../wait';
import { runCli } from '../cli-process';
import { recordedHomeEnv } from '../../live/lab/record';

const LIVE = resolve(__dirname, '../../fixtures/live');
const CLAUDE = join(LIVE, 'claude-2.1.328', 'usage-limit-hooks-off');
const CODEX = join(LIVE, 'codex-0.169.0', 'usage-limit-hooks-off');
const caseOf = (folder: string) => JSON.parse(readFileSync(join(folder, 'case.json'), 'utf8')) as { now: string; sessionKey: string };

const dir = mkdtempSync(join(tmpdir(), 'lookout-limit-notices-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
cpSync(join(CLAUDE, 'home'), dir, { recursive: true });
cpSync(join(CODEX, 'home'), dir, { recursive: true });
const env = {
  HOME: dir,
  CLAUDE_CONFIG_DIR: join(dir, '.claude'),
  CODEX_HOME: join(dir, '.codex'),
  LOOKOUT_HOME: join(dir, '.lookout'),
  PATH: process.env.PATH ?? '',
};

/** Every agent's folders under one recorded home, and this PATH (the runtime finds its programs). */
const homeEnv = (home: string): Record<string, string> => ({ ...recordedHomeEnv(home), PATH: process.env.PATH ?? '' });

class Recorder implements Notifier {
  readonly plans: NotificationPlan[] = [];
  send(plan: NotificationPlan): Promise<void> {
    this.plans.push(plan);
    return Promise.resolve();
  }
}

/** A runtime whose clock reads each instant in turn, evaluated there: the notices sent at each. */
async function runAt(instants: number[], runEnv: Record<string, string> = env): Promise<NotificationPlan[][]> {
  const now = { value: instants[0] ?? 0 };
  const recorder = new Recorder();
  const runtime = new Runtime({ env: runEnv, clock: () => now.value, notifier: recorder, onProblem: () => undefined, answering: false, hosts: false });
  const told: NotificationPlan[][] = [];
  let seen = 0;
  try {
    await runtime.start();
    for (const [index, instant] of instants.entries()) {
      now.value = instant;
      if (index > 0) runtime.evaluateNow(true);
      // A notifier's send may finish a tick later: wait for the evaluation at this instant, then a turn.
      await waitFor('the evaluation at this instant', () => (runtime.evaluation?.snapshot.now === new Date(instant).toISOString() ? true : undefined));
      await new Promise((done) => setImmediate(done));
      told.push(recorder.plans.slice(seen));
      seen = recorder.plans.length;
    }
  } finally {
    await runtime.dispose();
  }
  return told;
}

describe('R82 usage-limit notices through the runtime', () => {
  it('R82 once when a limit stops work, once per provider at its reset, and not again after a restart', async () => {
    const claude = caseOf(CLAUDE);
    const stoppedAt = Math.max(Date.parse(claude.now), Date.parse(caseOf(CODEX).now));
    const [first = [], again = []] = await runAt([stoppedAt, stoppedAt + 5_000]);
    expect(first.map((plan) => plan.title)).toEqual(['Usage limits stopped 2 sessions']);
    expect(first[0]?.body.split('\n').sort()).toEqual([
      expect.stringMatching(/^Claude stopped in a session: usage limit until /),
      expect.stringMatching(/^Codex stopped in a session: usage limit until /),
    ]);
    expect(first[0]?.keys.sort()).toEqual([claude.sessionKey, caseOf(CODEX).sessionKey].sort());
    expect(again).toEqual([]);
    // Both limits reset at the same instant (the lab's model sent one reset to both agents).
    const reset = 3 * 3600_000;
    const [atReset = [], afterReset = []] = await runAt([stoppedAt + reset, stoppedAt + reset + 5_000]);
    expect(atReset.map((plan) => plan.title)).toEqual(['Usage limits reset: 2 sessions can go on']);
    expect(atReset[0]?.body.split('\n').sort()).toEqual([
      "Claude's usage limit reset: a session stopped mid-task can go on",
      "Codex's usage limit reset: a session stopped mid-task can go on",
    ]);
    expect(afterReset).toEqual([]);
    // Restarted: the ledger says both were told.
    expect((await runAt([stoppedAt + reset + 10_000])).flat()).toEqual([]);
  });
});

/** The other agents' limits the lab recorded: the agent, its recording, and whether it names the reset. */
const OTHERS = [
  { name: 'Qwen', folder: 'qwen-0.24.4/quota', reset: true },
  { name: 'opencode', folder: 'opencode-1.18.33/usage-limit', reset: true },
  { name: 'Kilo', folder: 'kilo-7.7.9/usage-limit', reset: true },
  { name: 'Gemini', folder: 'gemini-0.61.0/quota', reset: false },
  { name: 'Copilot', folder: 'copilot-1.0.102/usage-limit', reset: false },
  { name: 'Droid', folder: 'droid-0.225.2/usage-limit', reset: false },
] as const;

describe('R82 usage-limit notices for each agent the lab stopped at a limit', () => {
  for (const other of OTHERS) {
    it(`R82 ${other.folder}: once when the limit stops work${other.reset ? ', once at the reset it named' : ', and no reset is made up'}; not again after a restart`, async () => {
      const folder = join(LIVE, other.folder);
      const home = mkdtempSync(join(dir, 'agent-'));
      cpSync(join(folder, 'home'), home, { recursive: true, preserveTimestamps: true });
      const runEnv = homeEnv(home);
      const recorded = caseOf(folder);
      const stoppedAt = Date.parse(recorded.now);
      const [first = [], again = []] = await runAt([stoppedAt, stoppedAt + 5_000], runEnv);
      expect(first).toHaveLength(1);
      expect(first[0]?.keys).toEqual([recorded.sessionKey]);
      const until = other.reset ? ' until ' : '';
      expect(first[0]?.title.startsWith(`${other.name} stopped in a session: usage limit${until}`)).toBe(true);
      if (!other.reset) expect(first[0]?.title).toMatch(/usage limit$/);
      expect(again).toEqual([]);
      const rows = statusAt(runEnv, stoppedAt);
      const resetsAt = rows.find((row) => row.key === recorded.sessionKey)?.resetsAt ?? null;
      if (!other.reset) {
        expect(resetsAt).toBeNull();
        // Hours on, nothing said: no reset was named, none is guessed.
        expect((await runAt([stoppedAt + 6 * 3600_000], runEnv)).flat()).toEqual([]);
        return;
      }
      const reset = Date.parse(resetsAt ?? '');
      expect(reset).toBeGreaterThan(stoppedAt);
      const [before = [], atReset = [], afterReset = []] = await runAt([reset - 1_000, reset + 1_000, reset + 6_000], runEnv);
      expect(before).toEqual([]);
      expect(atReset.map((plan) => plan.title)).toEqual([`${other.name}'s usage limit reset: a session stopped mid-task can go on`]);
      expect(afterReset).toEqual([]);
      expect((await runAt([reset + 10_000], runEnv)).flat()).toEqual([]);
    });
  }
});

/** The rows `status --json` gives of a home at an instant (for the reset each row names). */
function statusAt(runEnv: Record<string, string>, at: number): { key: string; resetsAt?: string | null }[] {
  const result = runCli(['status', '--json', '--all', '--now', new Date(at).toISOString()], runEnv);
  expect(result.code, result.stderr).toBe(0);
  return (JSON.parse(result.stdout) as { sessions: { key: string; resetsAt?: string | null }[] }).sessions;
}
