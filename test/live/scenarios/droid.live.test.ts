// Factory Droid through `droid exec` (its TUI needs a Factory login the lab cannot give) against
// the lab's model: what Lookout says at each moment, checked against what the scenario did. Exec
// never asks for approval and has no question tool, so those moments cannot be driven here.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { droid } from '../lab/agents/droid';
import { noResetGuessed } from '../lab/limits';
import type { LabRow } from '../lab/lookout';
import { killedMidTurn, runningThenFinished } from '../lab/moments';
import type { Scenario } from '../lab/scenario';
import { installed, scenarios, suiteName } from '../lab/suite';
import { QUOTA_MESSAGE, usageLimitReply } from '../lab/usage-limit';
import { waitFor } from '../../wait';

/** Ctrl-C in the terminal while the model holds the turn open: exec stops at once. */
async function stoppedWithCtrlC(lab: Scenario): Promise<void> {
  await lab.prompt('a long job');
  await lab.held();
  await lab.expectRow('running', (row) => row.observed.state === 'running');
  lab.tmux.keys('C-c');
  await waitFor(
    'droid exec gone',
    () => (lab.tmux.paneDead() ? true : undefined),
    () => lab.tmux.screen(),
  );
}

/** Every session file Droid wrote in the scenario's home, as one text. */
function sessionText(lab: Scenario): string {
  const folder = join(lab.home.home, '.factory', 'sessions');
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.jsonl'))
    .map((name) => readFileSync(join(folder, name), 'utf8'))
    .join('\n');
}

const past = (row: LabRow, ms: number): boolean => row.observed.at !== null && Date.now() - Date.parse(row.observed.at) > ms;

describe.skipIf(!installed(droid))(suiteName(droid), () => {
  const start = scenarios(droid);

  it('R1 running: a held model stream reads running, then finished (agent_turn_outcome "completed")', async () => {
    const lab = await start({ name: 'running', replies: [{ kind: 'hold', text: 'Thinking…' }] });
    const row = await runningThenFinished(lab);
    expect(row.observed.source).toBe('droid.session');
    lab.record('finished', 'a held turn released: agent_turn_outcome completed', row);
  });

  it('R3 exec never waits for approval: a command still running past the grace reads running (tool-running), never "may be waiting"; then it finishes', async () => {
    const lab = await start({
      name: 'tool',
      replies: [
        { kind: 'tool', call: droid.tools.guardedShell('sleep 12 && touch droid-slow.txt') },
        { kind: 'text', text: 'Done waiting.' },
      ],
    });
    await lab.prompt('wait a while');
    const row = await lab.expectRow('running past the grace', (row) => row.observed.reason === 'tool-running' && past(row, 8_000));
    expect(row.observed.state).toBe('running');
    expect(row.observed.detail).toBe('Execute: sleep 12 && touch droid-slow.txt');
    expect(row.claim).toBeNull();
    await waitFor(
      'the command ran',
      () => (existsSync(lab.projectFile('droid-slow.txt')) ? true : undefined),
      () => lab.tmux.screen(),
    );
    await lab.expectRow('finished', (row) => row.observed.state === 'idle' && row.observed.reason === 'turn-finished');
  });

  it("R1 a command beyond exec's autonomy is refused at once (a failed tool result, no prompt): the turn reads finished, nobody is asked", async () => {
    const lab = await start({
      name: 'refused',
      replies: [
        {
          kind: 'tool',
          call: {
            name: 'Execute',
            input: { summary: 'Push', command: 'git push --force origin main', riskLevel: 'high', riskLevelReason: 'pushes to a remote' },
          },
        },
      ],
    });
    await lab.prompt('push it');
    await lab.tmux.waitForScreen('exec refusing', (screen) => screen.includes('insufficient permission'));
    const row = await lab.expectRow('finished', (row) => row.observed.state === 'idle');
    expect(row.observed.reason).toBe('turn-finished');
    expect(row.claim?.kind ?? null).not.toBe('needs-you');
    lab.record('refused', "a command beyond exec's autonomy refused (tool_result is_error), then agent_turn_outcome completed", row);
  });

  it("R13 a failed turn: a model that refuses the key (401, no retry) reads error/api-error in Droid's own words", async () => {
    const lab = await start({ name: 'error', replies: [{ kind: 'error', status: 401, message: 'lab: bad key' }] });
    await lab.prompt('this will fail');
    const row = await lab.expectRow('error', (row) => row.observed.state === 'error');
    expect(row.observed.reason).toBe('api-error');
    expect(row.observed.detail).toBe('BYOK Error: 401 lab: bad key');
    expect(row.claim?.kind).toBe('failed');
    lab.record('error', 'a 401: a user_only "BYOK Error" message, then agent_turn_outcome model_authentication_failed', row);
  });

  it('R13 a failed turn: a rate-limited model (429: five tries over about 85 s) reads error, not finished', async () => {
    const lab = await start({ name: 'rate-limited', replies: [{ kind: 'error', status: 429, message: 'lab: slow down' }] });
    await lab.prompt('this will be limited');
    const row = await lab.expectRow('error', (row) => row.observed.state === 'error', 180_000);
    expect(row.observed.detail).toBe('BYOK Error: 429 lab: slow down');
    expect(lab.model.mainRequests.length).toBeGreaterThan(1);
    lab.record('rate-limited', 'a 429 retried, then agent_turn_outcome model_rate_limited', row);
  }, 240_000);

  it("R80 a usage limit (429 insufficient_quota, retry-after an hour): running while Droid retries (five tries, ~90 s, the header unheeded), then limited/usage-limit in the provider's words, no reset time (Droid saves no headers), none made up hours later", async () => {
    const lab = await start({ name: 'usage-limit', replies: [usageLimitReply()] });
    await lab.prompt('this will hit the limit');
    await waitFor(
      'a retry',
      () => (lab.model.mainRequests.length > 1 ? true : undefined),
      () => lab.tmux.screen(),
      { timeout: 60_000 },
    );
    const retrying = await lab.expectRow('running while it retries', (row) => row.observed.state !== 'idle');
    expect(retrying.observed).toMatchObject({ state: 'running', reason: 'turn-open' });
    const row = await lab.expectRow('limited', (row) => row.observed.state !== 'running', 180_000);
    expect(row.observed).toMatchObject({ state: 'limited', reason: 'usage-limit', detail: `BYOK Error: 429 ${QUOTA_MESSAGE}` });
    expect(sessionText(lab)).toContain('"reason":"model_rate_limited"');
    expect(row.claim?.kind).toBe('limited');
    expect(row.resetsAt ?? null).toBeNull();
    lab.record(
      'usage-limit',
      'a 429 insufficient_quota retried, then a user_only "BYOK Error: 429 You exceeded your current quota" and agent_turn_outcome model_rate_limited',
      row,
    );
    // A next prompt is not driven: `droid exec -s <id>` after the limit exits 1 with no words in the
    // lab (0.225.2); a new turn clearing a limit is the engine's, the same for every agent.
    noResetGuessed(lab);
  }, 240_000);

  it('R80 a usage limit as Droid names it (402: agent_turn_outcome model_usage_exhausted) reads limited/usage-limit', async () => {
    const lab = await start({ name: 'usage-exhausted', replies: [{ kind: 'error', status: 402, message: 'lab: out of credits' }] });
    await lab.prompt('this will be out of credits');
    const row = await lab.expectRow('the turn ended', (row) => ['limited', 'error', 'idle'].includes(row.observed.state), 180_000);
    expect(row.observed).toMatchObject({ state: 'limited', reason: 'usage-limit' });
    expect(row.observed.detail ?? '').toContain('402');
    expect(sessionText(lab)).toContain('"reason":"model_usage_exhausted"');
    lab.record('usage-exhausted', 'a 402: a user_only "BYOK Error: 402 …", then agent_turn_outcome model_usage_exhausted', row);
  }, 240_000);

  it('R7 Ctrl-C stops droid exec and writes nothing: a turn left open where no Droid runs reads ended, never running or finished', async () => {
    const lab = await start({ name: 'interrupt', replies: [{ kind: 'hold', text: 'A long answer…' }] });
    await stoppedWithCtrlC(lab);
    const row = await lab.expectRow('ended', (row) => row.observed.state === 'ended', 30_000);
    expect(row.observed.reason).toBe('process-gone');
    expect(row.observed.source).toBe('droid.process');
    lab.record('interrupted', 'Ctrl-C mid-turn: nothing written after the prompt, no Droid runs in the folder', row);
  });

  it("R7 killed with kill -9 mid-turn: no Droid runs in the session's folder any more, the row reads ended", async () => {
    const lab = await start({ name: 'kill', replies: [{ kind: 'hold', text: 'Busy…' }] });
    const row = await killedMidTurn(lab);
    expect(row.observed.source).toBe('droid.process');
    lab.record('killed', 'kill -9 mid-turn: the file ends at the prompt, no Droid runs in the folder', row);
  });

  it('R8 hooks: installed by Lookout, Droid runs them; a finished run ends with Stop then SessionEnd: the row reads ended from the hook (direct), the turn finished', async () => {
    const lab = await start({
      name: 'hooks',
      hooks: true,
      replies: [
        { kind: 'tool', call: droid.tools.guardedShell('touch droid-hooked.txt') },
        { kind: 'text', text: 'Made it.' },
      ],
    });
    await lab.prompt('make the file');
    await waitFor(
      'the command ran',
      () => (existsSync(lab.projectFile('droid-hooked.txt')) ? true : undefined),
      () => lab.tmux.screen(),
    );
    const row = await lab.expectRow('ended by the hook', (row) => row.observed.reason === 'session-end-hook', 30_000);
    expect(row.observed).toMatchObject({ state: 'ended', source: 'droid.hook', confidence: 'direct' });
    expect(lab.explain(row)).toContain('droid.session  idle/turn-finished');
    lab.record('finished-hooks-on', 'a finished run with hooks: PreToolUse, PostToolUse, Stop and SessionEnd in the spool', row);
  });

  it('R7 hooks: Ctrl-C mid-turn fires SessionEnd, weighed beside the writer gone', async () => {
    const lab = await start({ name: 'hooks-interrupt', hooks: true, replies: [{ kind: 'hold', text: 'A long answer…' }] });
    await stoppedWithCtrlC(lab);
    const row = await lab.expectRow('ended', (row) => row.observed.state === 'ended', 30_000);
    // A writer gone decides before any hook (the engine's order): the hook is weighed beside it.
    expect(lab.explain(row)).toContain('droid.hook  ended/session-end-hook  direct');
  });
});
