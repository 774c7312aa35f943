// Claude Code answered from Lookout (issue 23): the real TUI, its PermissionRequest hook waiting on
// a running Lookout beside the terminal prompt; `lookout answer` as a person types it.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { claude } from '../lab/agents/claude';
import { answerWhenDue, modelReceives, waitingHooks } from '../lab/answering';
import { installed, scenarios, suiteName } from '../lab/suite';
import { waitFor } from '../../wait';

const ENTRY = 'claude-answer';

describe.skipIf(!installed(claude))(`${suiteName(claude)}: answering from Lookout`, () => {
  const start = scenarios(claude);
  const shell = (command: string) => [
    { kind: 'tool' as const, call: claude.tools.guardedShell(command), text: 'Running it.' },
    { kind: 'text' as const, text: 'Done with it.' },
  ];

  it('R70 R71 a Bash prompt allowed with `lookout answer` runs the command; the audit says who answered', async () => {
    const lab = await start({ name: 'answer-allow', hooks: true, watch: true, replies: shell('touch allowed.txt') });
    await lab.prompt('make the file');
    await lab.tmux.waitForScreen('the permission prompt', claude.asksPermission);
    const row = await lab.expectRow('answerable, showing the command', (row) => row.answer?.state === 'open' && row.answer.text.includes('touch allowed.txt'));
    expect(row.observed.state).toBe('awaiting-approval');
    expect(row.answer?.state === 'open' ? row.answer.tool : '').toBe('Bash');
    expect(await answerWhenDue(lab, row, 'allow')).toContain('allowed Bash');
    await waitFor(
      'the allowed command ran',
      () => (existsSync(lab.projectFile('allowed.txt')) ? true : undefined),
      () => lab.tmux.screen(),
    );
    const done = await lab.expectRow('finished', (row) => row.observed.state === 'idle' && row.observed.reason === 'turn-finished');
    expect(lab.explain(done)).toMatch(/allowed from cli — req_[0-9a-f]+ \(Bash: touch allowed\.txt/);
    expect(waitingHooks(lab, ENTRY)).toEqual([]);
  });

  it('R71 a Bash prompt denied with a message: the command does not run and the model reads the message', async () => {
    const lab = await start({ name: 'answer-deny', hooks: true, watch: true, replies: shell('touch denied.txt') });
    await lab.prompt('make the file');
    await lab.tmux.waitForScreen('the permission prompt', claude.asksPermission);
    const row = await lab.expectRow('answerable', (row) => row.answer?.state === 'open');
    await answerWhenDue(lab, row, 'deny', '--message', 'Not this one, lab says');
    await modelReceives(lab, 'Not this one, lab says');
    await lab.expectRow('finished after the denial', (row) => row.observed.state === 'idle');
    expect(existsSync(lab.projectFile('denied.txt'))).toBe(false);
    expect(lab.explain(lab.rows()[0] ?? row)).toContain('denied from cli ("Not this one, lab says")');
  });

  it('R73 answered in the terminal first: Lookout lets its hook go and the audit says "in the terminal"', async () => {
    const lab = await start({ name: 'answer-terminal', hooks: true, watch: true, replies: shell('touch by-hand.txt') });
    await lab.prompt('make the file');
    await lab.tmux.waitForScreen('the permission prompt', claude.asksPermission);
    const row = await lab.expectRow('answerable', (row) => row.answer?.state === 'open');
    expect(waitingHooks(lab, ENTRY).length).toBeGreaterThan(0);
    await lab.approve();
    await waitFor('the command ran', () => (existsSync(lab.projectFile('by-hand.txt')) ? true : undefined));
    // Claude does not stop its hook when the terminal answers: Lookout must let it go.
    await waitFor(
      'the answering hook let go',
      () => (waitingHooks(lab, ENTRY).length === 0 ? true : undefined),
      () => lab.explain(row),
    );
    const done = await lab.expectRow('finished', (row) => row.observed.state === 'idle' && row.observed.reason === 'turn-finished');
    expect(lab.explain(done)).toMatch(/answered in the terminal — req_/);
    // A late answer from Lookout is refused, never sent.
    const late = lab.answer(row, 'allow');
    expect(late.code).toBe(1);
  });

  it('R70 an AskUserQuestion answered from Lookout reaches the model with the chosen label', async () => {
    const question = claude.tools.question('Which colour should the badge be?', ['Red', 'Blue']);
    if (question === null) throw new Error('Claude has a question tool');
    const lab = await start({
      name: 'answer-question',
      hooks: true,
      watch: true,
      replies: [
        { kind: 'tool', call: question },
        { kind: 'text', text: 'Noted.' },
      ],
    });
    await lab.prompt('ask me a question');
    await lab.tmux.waitForScreen('the question', (screen) => screen.includes('Which colour should the badge be?'));
    const row = await lab.expectRow('a question answerable with its options', (row) => row.answer?.state === 'open' && row.answer.prompt === 'question');
    if (row.answer?.state !== 'open') throw new Error('open');
    expect(row.answer.questions[0]?.options.map((option) => option.label)).toEqual(['Red', 'Blue']);
    // A bare allow never answers a question.
    expect(lab.answer(row, 'allow').code).toBe(1);
    expect(await answerWhenDue(lab, row, '--option', '2')).toContain('answered Blue');
    await modelReceives(lab, 'Blue');
    await lab.expectRow('finished', (row) => row.observed.state === 'idle');
  });

  it('R74 no Lookout running: the answering hook is installed, the terminal prompt decides, nothing waits', async () => {
    const lab = await start({ name: 'answer-none', hooks: true, replies: shell('touch unaided.txt') });
    await lab.prompt('make the file');
    await lab.tmux.waitForScreen('the permission prompt', claude.asksPermission);
    const row = await lab.expectRow(
      'awaiting approval, not answerable',
      (row) => row.observed.state === 'awaiting-approval' && row.answer?.state === 'unavailable',
    );
    expect(waitingHooks(lab, ENTRY)).toEqual([]);
    const refused = lab.answer(row, 'allow');
    expect(refused.code).toBe(1);
    await lab.approve();
    await waitFor('the command ran', () => (existsSync(lab.projectFile('unaided.txt')) ? true : undefined));
  });
});
