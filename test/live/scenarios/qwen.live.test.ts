// Qwen Code, the real TUI against the lab's model (OpenAI chat completions), asking before each
// tool as a careful user sets it: what Lookout says at each moment, against what the scenario did.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentLab } from '../lab/agents/agent';
import { describe, expect, it } from 'vitest';
import { qwen } from '../lab/agents/qwen';
import { goesOnAfterLimit, limitedUntil, resetInHours, resetPassed } from '../lab/limits';
import { failedAfterRetries, killedMidTurn, runningThenFinished } from '../lab/moments';
import { installed, scenarios, suiteName } from '../lab/suite';
import { waitFor } from '../../wait';

/** Qwen with QWEN_RUNTIME_DIR set: its sessions go to that folder's projects, its settings stay in QWEN_HOME. */
const qwenRuntimeDir: AgentLab = {
  ...qwen,
  prepare: (home, model) => ({ ...qwen.prepare(home, model), QWEN_RUNTIME_DIR: join(home.home, 'qwen-runtime') }),
  recorded: [],
};

describe.skipIf(!installed(qwen))(suiteName(qwen), () => {
  const start = scenarios(qwen);
  const startRuntimeDir = scenarios(qwenRuntimeDir);

  it('QWEN_RUNTIME_DIR set: the session under its projects is read, running then finished', async () => {
    const lab = await startRuntimeDir({ name: 'runtime-dir', replies: [{ kind: 'hold', text: 'Thinking…' }] });
    await runningThenFinished(lab);
    expect(readdirSync(join(lab.home.home, 'qwen-runtime', 'projects')).length).toBeGreaterThan(0);
    expect(existsSync(join(lab.home.home, '.qwen', 'projects'))).toBe(false);
  });

  it('R1 running: a held model stream reads running, then finished', async () => {
    const lab = await start({ name: 'running', replies: [{ kind: 'hold', text: 'Thinking…' }] });
    lab.record('finished', 'a turn answered in full: the answer follows its api_response', await runningThenFinished(lab));
  });

  it('R3 a shell command\'s approval prompt (no hooks): the call written before the prompt reads "may be waiting" (unknown), never running or idle; approved, it runs and finishes', async () => {
    const lab = await start({
      name: 'approve',
      replies: [
        { kind: 'tool', call: qwen.tools.guardedShell('touch qwen-made.txt') },
        { kind: 'text', text: 'Made it.' },
      ],
    });
    await lab.prompt('make the file');
    await lab.tmux.waitForScreen('the approval prompt', qwen.asksPermission);
    const row = await lab.expectRow('unknown: a call pending', (row) => row.observed.state === 'unknown');
    expect(row.observed.reason).toBe('tool-pending');
    expect(row.observed.detail ?? '').toContain('touch qwen-made.txt');
    expect(row.observed.source).toBe('qwen.chat');
    expect(row.claim?.kind).toBe('needs-you');
    lab.record('approval-pending', 'a shell call awaiting approval: the functionCall is in the file, nothing after it', row);
    await lab.approve();
    await waitFor(
      'the approved command ran',
      () => (existsSync(lab.projectFile('qwen-made.txt')) ? true : undefined),
      () => lab.tmux.screen(),
    );
    await lab.expectRow('finished', (row) => row.observed.state === 'idle' && row.observed.reason === 'turn-finished');
  });

  it("R8 with Lookout's hooks the approval prompt reads awaiting-approval the moment it opens, and the prompt still shows (the hooks run in the background); approved, it finishes", async () => {
    const lab = await start({
      name: 'approve-hooks',
      hooks: true,
      replies: [
        { kind: 'tool', call: qwen.tools.guardedShell('touch qwen-hooked.txt') },
        { kind: 'text', text: 'Made it.' },
      ],
    });
    await lab.prompt('make the file');
    await lab.tmux.waitForScreen('the approval prompt, not held back by a hook', qwen.asksPermission);
    const row = await lab.expectRow('awaiting approval, direct', (row) => row.observed.state === 'awaiting-approval');
    expect(row.observed.confidence).toBe('direct');
    expect(row.observed.source).toBe('qwen.hook');
    expect(row.observed.detail ?? '').toContain('touch qwen-hooked.txt');
    expect(row.claim?.kind).toBe('needs-you');
    expect(row.answer).toMatchObject({ state: 'unavailable' });
    lab.record('approval-hooks', 'a shell call awaiting approval, with the PermissionRequest hook heard', row);
    await lab.approve();
    await waitFor(
      'the approved command ran',
      () => (existsSync(lab.projectFile('qwen-hooked.txt')) ? true : undefined),
      () => lab.tmux.screen(),
    );
    await lab.expectRow('finished', (row) => row.observed.state === 'idle' && row.observed.reason === 'turn-finished');
  });

  it('R8 the approval prompt declined (Escape) reads idle/interrupted: Qwen writes the call cancelled and asks the model nothing more', async () => {
    const lab = await start({ name: 'decline', replies: [{ kind: 'tool', call: qwen.tools.guardedShell('touch never.txt') }] });
    await lab.prompt('make the file');
    await lab.tmux.waitForScreen('the approval prompt', qwen.asksPermission);
    await waitFor(
      'the prompt dismissed',
      async () => {
        lab.tmux.keys('Escape');
        return lab.tmux
          .waitForScreen('gone', (screen) => !qwen.asksPermission(screen), 3_000)
          .then(
            () => true,
            () => undefined,
          );
      },
      () => lab.tmux.screen(),
    );
    const row = await lab.expectRow('interrupted', (row) => row.observed.state === 'idle');
    expect(row.observed.reason).toBe('interrupted');
    expect(existsSync(lab.projectFile('never.txt'))).toBe(false);
    lab.record('declined', 'the approval prompt dismissed with Escape: a cancelled tool_result ends the turn', row);
  });

  it('R3 a question (ask_user_question) reads awaiting-input', async () => {
    const lab = await start({
      name: 'question',
      replies: [
        {
          kind: 'tool',
          call: {
            name: 'ask_user_question',
            input: {
              questions: [
                {
                  question: 'Which colour should the badge be?',
                  header: 'Colour',
                  options: [
                    { label: 'Red', description: 'Warm' },
                    { label: 'Blue', description: 'Cool' },
                  ],
                  multiSelect: false,
                },
              ],
            },
          },
        },
        { kind: 'text', text: 'Blue it is.' },
      ],
    });
    await lab.prompt('ask me a question');
    await lab.tmux.waitForScreen('the question', (screen) => screen.includes('Which colour should the badge be?'));
    const row = await lab.expectRow('awaiting input', (row) => row.observed.state === 'awaiting-input');
    expect(row.observed.reason).toBe('question-pending');
    expect(row.claim?.kind).toBe('needs-you');
  });

  it('R11 a subagent (agent, asked for first) at work reads running; released, finished', async () => {
    const lab = await start({
      name: 'subagent',
      replies: [
        {
          kind: 'tool',
          call: {
            name: 'agent',
            input: { description: 'Look around', prompt: 'List the files here.', subagent_type: 'general-purpose', run_in_background: false },
          },
        },
        { kind: 'hold', text: 'Subagent looking…' },
        { kind: 'text', text: 'Nothing here.' },
      ],
    });
    await lab.prompt('use a subagent');
    await lab.tmux.waitForScreen("the agent's approval prompt", qwen.asksPermission);
    await lab.expectRow('unknown: the agent call may be waiting', (row) => row.observed.state === 'unknown' && row.observed.reason === 'tool-pending');
    await lab.approve();
    await lab.held();
    const row = await lab.expectRow('running with its subagent', (row) => row.observed.state === 'running' || row.observed.state === 'running-subagents');
    expect(row.observed.state).toBe('running');
    await lab.releaseHold();
    await lab.expectRow('finished', (row) => row.observed.state === 'idle' && row.observed.reason === 'turn-finished');
  });

  it('R8 an interrupt (Escape) mid-answer reads idle/interrupted: the cut answer is written without its api_response', async () => {
    const lab = await start({ name: 'interrupt', replies: [{ kind: 'hold', text: 'A long answer…' }] });
    await lab.prompt('a long job');
    await lab.held();
    await lab.tmux.waitForScreen('the answer streaming', (screen) => screen.includes('A long answer'));
    await lab.expectRow('running', (row) => row.observed.state === 'running');
    await waitFor(
      'the interrupt taken',
      async () => {
        lab.tmux.keys('Escape');
        return lab.tmux
          .waitForScreen('cancelled', (screen) => screen.includes('Request cancelled'), 3_000)
          .then(
            () => true,
            () => undefined,
          );
      },
      () => lab.tmux.screen(),
    );
    const row = await lab.expectRow('interrupted', (row) => row.observed.state === 'idle');
    expect(row.observed.reason).toBe('interrupted');
    lab.record('interrupted', 'Escape mid-answer: the cut answer written with no api_response and no usage', row);
  });

  it('R7 killed with kill -9 mid-turn: runtime.json names a pid that is gone, the row reads ended', async () => {
    const lab = await start({ name: 'kill', replies: [{ kind: 'hold', text: 'Busy…' }] });
    const row = await killedMidTurn(lab);
    expect(row.observed.source).toBe('qwen.runtime');
    lab.record('killed', 'kill -9 mid-turn: runtime.json left behind, its pid gone', row);
  });

  it('R80 a quota spent until a reset (429, Qwen\'s "will reset at" words) fails at once: limited/usage-limit until that instant, in Qwen\'s words; past it limit-reset; a new prompt runs and finishes', async () => {
    const resetsAt = resetInHours(3);
    const words = `Quota exceeded: your daily quota will reset at ${new Date(resetsAt * 1000).toISOString()}.`;
    const lab = await start({ name: 'quota', replies: [{ kind: 'error', status: 429, message: words, quota: { perDay: true } }] });
    await lab.prompt('hit the quota');
    await lab.tmux.waitForScreen('Qwen gave up', (screen) => screen.includes('Quota exhausted'));
    const row = await limitedUntil(lab, resetsAt, 0, /will reset at/);
    expect(row.observed).toMatchObject({ source: 'qwen.chat', detail: `429 ${words}` });
    lab.record('quota', 'one api_error 429 whose words name a reset: Qwen fails fast ("Quota exhausted: …") and writes nothing more', row);
    resetPassed(lab, resetsAt);
    await goesOnAfterLimit(lab, true);
  });

  it('R80 a quota 429 with no reset in its words (insufficient_quota) is retried by Qwen as a rate limit: running, never limited', async () => {
    const lab = await start({
      name: 'quota-retried',
      replies: [
        { kind: 'error', status: 429, message: 'You exceeded your current quota, please check your plan and billing details.', quota: { perDay: true } },
      ],
    });
    await lab.prompt('this will be retried');
    await waitFor(
      'two attempts',
      () => (lab.model.mainRequests.length >= 2 ? true : undefined),
      () => lab.tmux.screen(),
      { timeout: 120_000 },
    );
    const row = await lab.expectRow('running while retried', (row) => row.observed.state === 'running');
    expect(row.observed.reason).toBe('turn-open');
  });

  it('R5 a model that keeps failing (500: seven attempts, then Qwen gives up, writing nothing more) reads error/api-error, not running', async () => {
    const lab = await start({ name: 'error', replies: [{ kind: 'error', status: 500, message: 'lab model down' }] });
    const row = await failedAfterRetries(lab);
    expect(row.observed.detail ?? '').toContain('lab model down');
    await lab.tmux.waitForScreen('Qwen gave up', (screen) => screen.includes('API Error'), 30_000);
    lab.record('error', 'seven api_error records (one per attempt) and nothing after: Qwen gave up', row);
  });
});
