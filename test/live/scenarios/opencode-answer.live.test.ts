// opencode answered from Lookout (issue 23): the real TUI with Lookout's plugin, which brings a
// permission or a question to a running Lookout and replies through opencode's own routes.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { opencode } from '../lab/agents/opencode';
import { answerWhenDue, modelReceives } from '../lab/answering';
import { installed, scenarios, suiteName } from '../lab/suite';
import { waitFor } from '../../wait';

describe.skipIf(!installed(opencode))(`${suiteName(opencode)}: answering from Lookout`, () => {
  const start = scenarios(opencode);
  const shell = (file: string) => [
    { kind: 'tool' as const, call: opencode.tools.guardedShell(`touch ${file}`) },
    { kind: 'text' as const, text: 'Done with it.' },
  ];

  it('R70 R71 a permission allowed with `lookout answer` runs the command', async () => {
    const lab = await start({ name: 'answer-allow', hooks: true, watch: true, replies: shell('allowed.txt') });
    await lab.prompt('make the file');
    await lab.tmux.waitForScreen('the permission prompt', opencode.asksPermission);
    const row = await lab.expectRow('answerable, showing the command', (row) => row.answer?.state === 'open' && row.answer.text.includes('touch allowed.txt'));
    expect(row.answer?.state === 'open' ? row.answer.tool : '').toBe('bash');
    await answerWhenDue(lab, row, 'allow');
    await waitFor(
      'the allowed command ran',
      () => (existsSync(lab.projectFile('allowed.txt')) ? true : undefined),
      () => lab.tmux.screen(),
    );
    const done = await lab.expectRow('finished', (row) => row.observed.state === 'idle' && row.observed.reason === 'turn-finished');
    expect(lab.explain(done)).toMatch(/allowed from cli — req_[0-9a-f]+ \(bash: touch allowed\.txt/);
  });

  it('R71 a permission denied with a message: the command does not run and the model reads the message', async () => {
    const lab = await start({ name: 'answer-deny', hooks: true, watch: true, replies: shell('denied.txt') });
    await lab.prompt('make the file');
    await lab.tmux.waitForScreen('the permission prompt', opencode.asksPermission);
    const row = await lab.expectRow('answerable', (row) => row.answer?.state === 'open');
    await answerWhenDue(lab, row, 'deny', '--message', 'Not this one, lab says');
    await modelReceives(lab, 'Not this one, lab says');
    expect(existsSync(lab.projectFile('denied.txt'))).toBe(false);
  });

  it('R70 a question answered from Lookout reaches the model with the chosen label', async () => {
    const question = opencode.tools.question('Which colour should the badge be?', ['Red', 'Blue']);
    if (question === null) throw new Error('opencode has a question tool');
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
    expect(await answerWhenDue(lab, row, '--option', '2')).toContain('answered Blue');
    await modelReceives(lab, '=\\"Blue\\"');
    await lab.expectRow('finished', (row) => row.observed.state === 'idle');
  });

  it('R73 answered in the terminal first: the plugin tells Lookout, which lets the request go', async () => {
    const lab = await start({ name: 'answer-terminal', hooks: true, watch: true, replies: shell('by-hand.txt') });
    await lab.prompt('make the file');
    await lab.tmux.waitForScreen('the permission prompt', opencode.asksPermission);
    const row = await lab.expectRow('answerable', (row) => row.answer?.state === 'open');
    await lab.approve();
    await waitFor('the command ran', () => (existsSync(lab.projectFile('by-hand.txt')) ? true : undefined));
    const done = await lab.expectRow('finished', (row) => row.observed.state === 'idle' && row.observed.reason === 'turn-finished');
    expect(lab.explain(done)).toMatch(/answered (elsewhere \(the agent said so\)|in the terminal) — req_/);
    expect(lab.answer(row, 'allow').code).toBe(1);
  });
});
