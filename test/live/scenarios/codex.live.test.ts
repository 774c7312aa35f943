// Codex, the real TUI against the lab's model: what Lookout says at each moment of each scenario,
// checked against what the scenario did.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codex, codexHome } from '../lab/agents/codex';
import type { Scenario } from '../lab/scenario';
import { killedMidTurn, runningThenFinished, subagentAtWork } from '../lab/moments';
import { installed, scenarios, suiteName } from '../lab/suite';
import { waitFor } from '../../wait';

/** The rollout's text once it holds `marker` (the record a moment of the scenario writes). */
async function rolloutWith(lab: Scenario, marker: string): Promise<string> {
  return waitFor(`a rollout record with ${marker}`, () => {
    for (const path of rollouts(join(codexHome(lab.home), 'sessions'))) {
      const text = readFileSync(path, 'utf8');
      if (text.includes(marker)) return text;
    }
    return undefined;
  });
}

function rollouts(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.jsonl'))
    .map((name) => join(folder, name));
}

describe.skipIf(!installed(codex))(suiteName(codex), () => {
  const start = scenarios(codex);
  const shell = codex.tools.guardedShell('touch lab-made.txt');

  it('R1 running: a held model stream reads running, then finished', async () => {
    await runningThenFinished(await start({ name: 'running', replies: [{ kind: 'hold', text: 'Thinking…' }] }));
  });

  it('R3 an approval prompt without hooks: Codex writes nothing for it, so the row says it may be waiting (unknown), never running or idle', async () => {
    const lab = await start({
      name: 'approve-nohooks',
      replies: [
        { kind: 'tool', call: shell },
        { kind: 'text', text: 'Made it.' },
      ],
    });
    await lab.prompt('make the file');
    await lab.tmux.waitForScreen('the approval prompt', codex.asksPermission);
    const row = await lab.expectRow('unknown: a call pending', (row) => row.observed.state === 'unknown');
    expect(row.observed.reason).toBe('tool-pending');
    expect(row.observed.detail ?? '').toContain('touch lab-made.txt');
    lab.record('approval-hooks-off', 'an approval prompt on screen, nothing of it in the rollout', row);
  });

  it('R8 an approval prompt with hooks reads awaiting-approval (one row: no phantom for the title thread, case 4), then approved it runs and finishes', async () => {
    const lab = await start({
      name: 'approve-hooks',
      hooks: true,
      replies: [
        { kind: 'tool', call: shell },
        { kind: 'text', text: 'Made it.' },
      ],
    });
    await lab.prompt('make the file');
    await lab.tmux.waitForScreen('the approval prompt', codex.asksPermission);
    const asking = await lab.expectRow('awaiting approval', (row) => row.observed.state === 'awaiting-approval');
    expect(asking.observed.confidence).toBe('direct');
    expect(asking.claim?.kind).toBe('needs-you');
    // The title thread's notify has fired by now (it answers before the turn's first reply).
    expect(lab.model.requests.some((request) => request.role === 'side')).toBe(true);
    await lab.approve();
    await waitFor('the approved command ran', () => (existsSync(lab.projectFile('lab-made.txt')) ? true : undefined));
    const done = await lab.expectRow('finished', (row) => row.observed.state === 'idle' && row.observed.reason === 'turn-finished');
    expect(done.observed.reason).toBe('turn-finished');
    lab.record('finished-hooks-on', 'case 4: a finished turn with hooks; the notify of the title thread (no rollout) makes no row', done);
  });

  it('R3 a question (request_user_input, in Plan mode) reads awaiting-input with the question', async () => {
    const question = codex.tools.question('Which colour should the badge be?', ['Red', 'Blue']);
    if (question === null) throw new Error('Codex has a question tool');
    const lab = await start({
      name: 'question',
      replies: [
        { kind: 'tool', call: question },
        { kind: 'text', text: 'Blue it is.' },
      ],
    });
    // The tool exists only in Plan mode: Shift+Tab cycles the modes until the footer says so.
    await waitFor(
      'Plan mode',
      async () => {
        lab.tmux.keys('BTab');
        return await lab.tmux
          .waitForScreen('Plan mode', (screen) => screen.includes('Plan mode'), 2_000)
          .then(
            () => true,
            () => undefined,
          );
      },
      () => lab.tmux.screen(),
    );
    await lab.prompt('plan the badge');
    await lab.tmux.waitForScreen('the question', (screen) => screen.includes('Which colour should the badge be?'));
    const row = await lab.expectRow(
      'awaiting input, with the question',
      (row) => row.observed.state === 'awaiting-input' && (row.observed.detail ?? '').includes('Which colour'),
    );
    expect(row.observed.detail ?? '').toContain('Which colour');
    expect(row.claim?.kind).toBe('needs-you');
  });

  for (const hooks of [false, true]) {
    it(`R5 a model that keeps failing (500) reads error/api-error the moment the failed turn is written (hooks ${hooks ? 'on: case 3' : 'off: case 2'})`, async () => {
      const lab = await start({ name: `error-${String(hooks)}`, hooks, replies: [{ kind: 'error', status: 500, message: 'lab model down' }] });
      await lab.prompt('this will fail');
      await rolloutWith(lab, '"codex_error_info"');
      // Read at once: with hooks the prompt's working mark must not hold the row running.
      const row = await lab.expectRow('error', (row) => row.observed.state === 'error', 15_000);
      expect(row.observed.reason).toBe('api-error');
      expect(row.claim?.kind).toBe('failed');
      lab.record(
        `error-hooks-${hooks ? 'on' : 'off'}`,
        hooks ? 'case 3: a failed turn after the prompt hook, no Stop hook' : 'case 2: a failed turn ends with task_complete carrying error',
        row,
      );
    });
  }

  it('R8 an interrupt (Escape) mid-turn reads idle/interrupted', async () => {
    const lab = await start({ name: 'interrupt', replies: [{ kind: 'hold', text: 'A long answer…' }] });
    await lab.prompt('a long job');
    await lab.expectRow('running', (row) => row.observed.state === 'running');
    await lab.held();
    lab.tmux.keys('Escape');
    const row = await lab.expectRow('interrupted', (row) => row.observed.state === 'idle');
    expect(row.observed.reason).toBe('interrupted');
  });

  it('R11 a sub-agent (spawn_agent) at work reads running, then finished', async () => {
    const subagent = codex.tools.subagent('Look around', 'List the files here.');
    if (subagent === null) throw new Error('Codex has sub-agents');
    // spawn_agent returns at once: the lead's next turn and the sub-agent's both ask the model, in
    // either order, so both are held, and released only once both are.
    const lab = await start({
      name: 'subagent',
      replies: [
        { kind: 'tool', call: subagent },
        { kind: 'hold', text: 'Looking…' },
        { kind: 'hold', text: 'Looking…' },
      ],
    });
    await subagentAtWork(lab, 2);
  });

  it('R7 killed with kill -9 (the TUI and its app-server daemon) mid-turn reads ended, not running (case 5)', async () => {
    const lab = await start({ name: 'kill', replies: [{ kind: 'hold', text: 'Busy…' }] });
    const row = await killedMidTurn(lab);
    expect(row.observed.source).toBe('codex.thread-writer-lock');
    lab.record('killed', 'case 5: kill -9 mid-turn; the thread-writer lock is left and nobody holds it', row);
  });
});
