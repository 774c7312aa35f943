// Claude Code, the real TUI against the lab's model: what Lookout says at each moment of each
// scenario, checked against what the scenario did.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { claude } from '../lab/agents/claude';
import { killedMidTurn, runningThenFinished, subagentAtWork, subagentReplies } from '../lab/moments';
import { installed, scenarios, suiteName } from '../lab/suite';
import { waitFor } from '../../wait';

describe.skipIf(!installed(claude))(suiteName(claude), () => {
  const start = scenarios(claude);

  it('R1 running: a held model stream reads running from the registry, then finished', async () => {
    const lab = await start({ name: 'running', replies: [{ kind: 'hold', text: 'Thinking about it…' }] });
    await runningThenFinished(lab);
  });

  for (const hooks of [false, true]) {
    it(`R8 a permission prompt left unanswered reads awaiting-approval (hooks ${hooks ? 'on' : 'off'}), then approved it runs and finishes`, async () => {
      const lab = await start({
        name: `approve-${String(hooks)}`,
        hooks,
        replies: [
          { kind: 'tool', call: claude.tools.guardedShell('touch lab-made.txt'), text: 'Making it.' },
          { kind: 'text', text: 'Made the file.' },
        ],
      });
      await lab.prompt('make the file');
      await lab.tmux.waitForScreen('the permission prompt', claude.asksPermission);
      const asking = await lab.expectRow(
        'awaiting approval, naming the command',
        (row) => row.observed.state === 'awaiting-approval' && (row.observed.detail ?? '').includes('touch lab-made.txt'),
      );
      expect(asking.observed.confidence).toBe('direct');
      expect(asking.observed.detail).toContain('touch lab-made.txt');
      expect(asking.claim?.kind).toBe('needs-you');
      lab.record(`approval-hooks-${hooks ? 'on' : 'off'}`, 'a Bash permission prompt on screen', asking);
      await lab.approve();
      await waitFor('the approved command ran', () => (existsSync(lab.projectFile('lab-made.txt')) ? true : undefined));
      const done = await lab.expectRow('finished', (row) => row.observed.state === 'idle' && row.observed.reason === 'turn-finished');
      expect(done.observed.reason).toBe('turn-finished');
      expect(done.claim?.kind ?? 'none').not.toBe('needs-you');
    });

    it(`R3 a question (AskUserQuestion) reads awaiting-input, never approval (hooks ${hooks ? 'on' : 'off'}: case 6)`, async () => {
      const question = claude.tools.question('Which colour should the badge be?', ['Red', 'Blue']);
      if (question === null) throw new Error('Claude has a question tool');
      const lab = await start({
        name: `question-${String(hooks)}`,
        hooks,
        replies: [
          { kind: 'tool', call: question },
          { kind: 'text', text: 'Blue it is.' },
        ],
      });
      await lab.prompt('ask me a question');
      await lab.tmux.waitForScreen('the question', (screen) => screen.includes('Which colour should the badge be?'));
      // Long enough for every hook and registry write the question causes to land (a failure shows the rows and the screen).
      await lab.expectRow('the question settled', (row) => row.observed.state === 'awaiting-input');
      const row = await lab.expectRow(
        'awaiting input, with the question',
        (row) => row.observed.state === 'awaiting-input' && (row.observed.detail ?? '').includes('Which colour'),
      );
      expect(row.observed.detail ?? '').toContain('Which colour');
      expect(row.claim?.kind).toBe('needs-you');
      lab.record(
        `question-hooks-${hooks ? 'on' : 'off'}`,
        'case 6: an AskUserQuestion on screen (its PermissionRequest hook asks for input, not approval)',
        row,
      );
    });

    it(`R5 a model that keeps failing (529) reads error/api-error, not idle (hooks ${hooks ? 'on' : 'off'}: case 1)`, async () => {
      const lab = await start({ name: `error-${String(hooks)}`, hooks, replies: [{ kind: 'error', status: 529, message: 'Overloaded (lab)' }] });
      await lab.prompt('this will fail');
      await lab.tmux.waitForScreen('the API error', (screen) => /API Error|Overloaded|529/.test(screen));
      // The registry turns idle a few ms after the error record: wait for it, then read the row.
      const row = await lab.expectRow('error', (row) => row.observed.state === 'error');
      expect(row.observed.reason).toBe('api-error');
      expect(row.claim?.kind).toBe('failed');
      expect(lab.model.mainRequests.length).toBeGreaterThanOrEqual(2);
      lab.record(`error-hooks-${hooks ? 'on' : 'off'}`, 'case 1: a turn failed on repeated 529s, then the registry said idle', row);
    });
  }

  it('R8 a file edit (Write) waiting for approval reads awaiting-approval naming the file; approved, the file is written', async () => {
    const lab = await start({ name: 'edit', replies: [] });
    const edit = claude.tools.fileEdit?.(lab.projectFile('notes.txt'), 'written by the lab\n');
    if (edit === undefined) throw new Error('Claude edits files');
    // The path is the scenario's own: the replies are given once its home exists.
    lab.model.script.queue({ kind: 'tool', call: edit }, { kind: 'text', text: 'Written.' });
    await lab.prompt('write the notes file');
    await lab.tmux.waitForScreen('the edit prompt', (screen) => /Do you want to (create|make this edit|proceed)/.test(screen));
    const asking = await lab.expectRow(
      'awaiting approval, naming the file',
      (row) => row.observed.state === 'awaiting-approval' && (row.observed.detail ?? '').includes('notes.txt'),
    );
    expect(asking.claim?.kind).toBe('needs-you');
    await waitFor(
      'approved',
      async () => {
        if (existsSync(lab.projectFile('notes.txt'))) return true;
        lab.tmux.keys('Enter');
        return await lab.tmux
          .waitForScreen('the prompt gone', (screen) => !/Do you want to (create|make this edit|proceed)/.test(screen), 5_000)
          .then(
            () => undefined,
            () => undefined,
          );
      },
      () => lab.tmux.screen(),
    );
    await lab.expectRow('finished', (row) => row.observed.state === 'idle' && row.observed.reason === 'turn-finished');
  });

  it('R8 an interrupt (Escape) while the model streams leaves the session idle, not running', async () => {
    const lab = await start({ name: 'interrupt', replies: [{ kind: 'hold', text: 'Working on a long answer…' }] });
    await lab.prompt('a long job');
    await lab.expectRow('running', (row) => row.observed.state === 'running');
    await lab.tmux.waitForScreen('the turn under way', (screen) => screen.includes('esc to interrupt'));
    lab.tmux.keys('Escape');
    const row = await lab.expectRow('idle after the interrupt', (row) => row.observed.state === 'idle');
    expect(['interrupted', 'provider-idle', 'turn-finished']).toContain(row.observed.reason);
  });

  it('R7 killed with kill -9 mid-turn: the registry pid is gone, the row reads ended', async () => {
    const lab = await start({ name: 'kill', replies: [{ kind: 'hold', text: 'Busy…' }] });
    const row = await killedMidTurn(lab);
    lab.record('killed', 'kill -9 mid-turn: the registry entry names a pid that is gone', row);
  });

  it('R11 a subagent at work while the lead waits on it reads running', async () => {
    const subagent = claude.tools.subagent('Look around', 'List the files here.');
    if (subagent === null) throw new Error('Claude has subagents');
    const lab = await start({ name: 'subagent', replies: subagentReplies(subagent) });
    await subagentAtWork(lab);
  });
});
