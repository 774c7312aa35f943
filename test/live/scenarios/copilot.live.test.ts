// GitHub Copilot CLI, the real TUI in its BYOK mode (no GitHub login) against the lab's model:
// what Lookout says at each moment of each scenario, checked against what the scenario did.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Scenario } from '../lab/scenario';
import { describe, expect, it } from 'vitest';
import { copilot, taskComplete } from '../lab/agents/copilot';
import { goesOnAfterLimit, limitedUntil, noResetGuessed } from '../lab/limits';
import { killedMidTurn, runningThenFinished, subagentAtWork, subagentReplies } from '../lab/moments';
import { installed, scenarios, suiteName } from '../lab/suite';
import { waitFor } from '../../wait';

/** Every session's events.jsonl in the scenario's Copilot home, as one text. */
function readEvents(lab: Scenario): string {
  const state = join(lab.home.home, '.copilot', 'session-state');
  if (!existsSync(state)) return '';
  return readdirSync(state)
    .map((id) => join(state, id, 'events.jsonl'))
    .filter((path) => existsSync(path))
    .map((path) => readFileSync(path, 'utf8'))
    .join('');
}

describe.skipIf(!installed(copilot))(suiteName(copilot), () => {
  const start = scenarios(copilot);

  it('R1 running: a held model stream reads running, then finished', async () => {
    await runningThenFinished(await start({ name: 'running', replies: [{ kind: 'hold', text: 'Thinking…' }] }));
  });

  it("R8 a shell command's approval prompt reads awaiting-approval from the events file itself, then approved it runs and finishes", async () => {
    const lab = await start({
      name: 'approve',
      replies: [
        { kind: 'tool', call: copilot.tools.guardedShell('touch lab-made.txt') },
        { kind: 'text', text: 'Made it.' },
      ],
    });
    await lab.prompt('make the file');
    await lab.tmux.waitForScreen('the approval prompt', copilot.asksPermission);
    const asking = await lab.expectRow(
      'awaiting approval, naming the command',
      (row) => row.observed.state === 'awaiting-approval' && (row.observed.detail ?? '').includes('touch lab-made.txt'),
    );
    expect(asking.observed.confidence).toBe('direct');
    expect(asking.observed.detail ?? '').toContain('touch lab-made.txt');
    expect(asking.claim?.kind).toBe('needs-you');
    await lab.approve();
    await waitFor('the approved command ran', () => (existsSync(lab.projectFile('lab-made.txt')) ? true : undefined));
    const done = await lab.expectRow('finished', (row) => row.observed.state === 'idle' && row.observed.reason === 'turn-finished');
    expect(done.observed.reason).toBe('turn-finished');
  });

  it('R3 a question (ask_user) reads awaiting-input', async () => {
    const question = copilot.tools.question('Which colour should the badge be?', ['Red', 'Blue']);
    if (question === null) throw new Error('Copilot has a question tool');
    const lab = await start({
      name: 'question',
      replies: [
        { kind: 'tool', call: question },
        { kind: 'text', text: 'Blue it is.' },
      ],
    });
    await lab.prompt('ask me a question');
    await lab.tmux.waitForScreen('the question', (screen) => screen.includes('Which colour should the badge be?'));
    const row = await lab.expectRow('awaiting input', (row) => row.observed.state === 'awaiting-input');
    expect(row.claim?.kind).toBe('needs-you');
  });

  it('R11 a subagent (task) at work reads running, then finished', async () => {
    const subagent = copilot.tools.subagent('Look around', 'List the files here.');
    if (subagent === null) throw new Error('Copilot has subagents');
    await subagentAtWork(await start({ name: 'subagent', replies: subagentReplies(subagent) }));
  });

  it('R8 an interrupt (Escape) mid-turn leaves the session idle, not running', async () => {
    const lab = await start({ name: 'interrupt', replies: [{ kind: 'hold', text: 'A long answer…' }] });
    await lab.prompt('a long job');
    await lab.held();
    await lab.expectRow('running', (row) => row.observed.state === 'running');
    // Copilot interrupts on Escape pressed twice ("esc esc interrupt"), the second once the first is seen.
    await waitFor(
      'the interrupt taken',
      async () => {
        const before = lab.tmux.screen();
        lab.tmux.keys('Escape');
        await lab.tmux.waitForScreen('the first Escape seen', (screen) => screen !== before, 3_000).catch(() => '');
        lab.tmux.keys('Escape');
        return await lab.tmux
          .waitForScreen('interrupted', (screen) => /interrupted|cancell?ed/i.test(screen), 3_000)
          .then(
            () => true,
            () => undefined,
          );
      },
      () => lab.tmux.screen(),
    );
    const row = await lab.expectRow('idle after the interrupt', (row) => row.observed.state === 'idle');
    expect(['interrupted', 'turn-finished']).toContain(row.observed.reason);
  });

  it('R1 autopilot: the loop\'s own "keep going" turn reads running; after task_complete and turn_end it reads finished, not running/turn-open', async () => {
    const lab = await start({
      name: 'autopilot',
      args: ['--autopilot', '--yolo'],
      replies: [
        { kind: 'hold', text: 'Working on it.' },
        { kind: 'tool', call: taskComplete('All done here.') },
      ],
    });
    await lab.prompt('do the thing');
    await lab.held();
    await lab.expectRow('running', (row) => row.observed.state === 'running');
    await lab.releaseHold();
    // The first answer asks for nothing: autopilot sends its continuation, and the model calls task_complete.
    await waitFor(
      'the continuation answered',
      () => (lab.model.requests.filter((request) => request.role === 'main').length >= 2 ? true : undefined),
      () => lab.tmux.screen(),
    );
    await lab.tmux.waitForScreen('the task marked complete', (screen) => screen.includes('Task complete'));
    const row = await lab.expectRow('finished', (row) => row.observed.state === 'idle' && row.observed.reason === 'turn-finished');
    expect(row.title).toBe('do the thing');
    lab.record('autopilot', 'autopilot ended by task_complete: session.task_complete, then assistant.turn_end after a tool-requesting message', row);
  });

  it('R7 killed with kill -9 mid-turn: its in-use lock names a pid that is gone, the row reads ended', async () => {
    const lab = await start({ name: 'kill', replies: [{ kind: 'hold', text: 'Busy…' }] });
    const row = await killedMidTurn(lab);
    lab.record('killed', 'kill -9 mid-turn: the in-use lock names a pid that is gone', row);
  });

  it('R5 a model that keeps failing (500: five retries, then Copilot gives up) reads error/api-error, not finished', async () => {
    const lab = await start({ name: 'error', replies: [{ kind: 'error', status: 500, message: 'lab model down' }] });
    await lab.prompt('this will fail');
    await lab.tmux.waitForScreen('Copilot gave up', (screen) => screen.includes('Failed to get response'), 150_000);
    // 1.0.102 writes assistant.turn_end, then session.error naming the prompt: the failure must not read finished.
    const row = await lab.expectRow('error', (row) => row.observed.state === 'error', 30_000);
    expect(row.observed.reason).toBe('api-error');
    expect(row.claim?.kind).toBe('failed');
    lab.record('error', 'a turn that failed after five retries: turn_end, then session.error naming the prompt', row);
  });

  it('R80 a usage limit (429, retry-after an hour, insufficient_quota): Copilot gives up at once with session.error rate_limit; reads limited/usage-limit, not error, with no reset (none is written); a new prompt runs and finishes', async () => {
    const lab = await start({
      name: 'limit',
      replies: [{ kind: 'quota', retryAfter: 3600, message: 'You exceeded your current quota, please check your plan and billing details.' }],
    });
    await lab.prompt('this will hit the limit');
    await waitFor(
      'Copilot wrote its limit',
      () => (readEvents(lab).includes('"errorType":"rate_limit"') ? true : undefined),
      () => lab.tmux.screen(),
      { timeout: 120_000 },
    );
    const row = await limitedUntil(lab, null, 0, /exceeded your current quota/);
    lab.record('usage-limit', 'a 429 with an hour\'s retry-after: assistant.turn_end, then session.error {errorType: "rate_limit", statusCode: 429}', row);
    noResetGuessed(lab);
    await goesOnAfterLimit(lab, true);
  });

  it('R80 a transient 429 (retry-after 1 s) that Copilot retries by itself reads running, then finished', async () => {
    const lab = await start({
      name: 'limit-retry',
      replies: [
        { kind: 'quota', retryAfter: 1, message: 'Rate limit reached, try again in 1s.' },
        { kind: 'text', text: 'Done after the wait.' },
      ],
    });
    await lab.prompt('this will be slowed down');
    await waitFor(
      'Copilot retried',
      () => (lab.model.mainRequests.length >= 2 ? true : undefined),
      () => `${lab.model.mainRequests.length} requests; ${readEvents(lab).slice(-600)}`,
      { timeout: 120_000 },
    );
    await lab.expectRow('running while it retries', (row) => row.observed.state === 'running');
    lab.model.script.skip();
    await lab.expectRow('finished', (row) => row.observed.state === 'idle' && row.observed.reason === 'turn-finished');
  });

  it('R11 a subagent that fails (its request meets a usage limit: subagent.failed) does not keep the row running-subagents once the lead has answered', async () => {
    const subagent = copilot.tools.subagent('Look around', 'List the files here.');
    if (subagent === null) throw new Error('Copilot has subagents');
    const lab = await start({
      name: 'subagent-fails',
      replies: [
        { kind: 'tool', call: subagent },
        { kind: 'quota', retryAfter: 3600, message: 'You exceeded your current quota.', times: 1 },
        { kind: 'text', text: 'The helper failed.' },
      ],
    });
    await lab.prompt('use a subagent');
    await waitFor(
      'the subagent failed',
      () => (readEvents(lab).includes('"subagent.failed"') ? true : undefined),
      () => lab.tmux.screen(),
      { timeout: 120_000 },
    );
    const row = await lab.expectRow('finished', (row) => row.observed.state === 'idle' && row.observed.reason === 'turn-finished');
    expect(row.children).toMatchObject({ live: 0 });
  });
});
