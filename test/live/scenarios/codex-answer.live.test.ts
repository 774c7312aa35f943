// Codex answered from Lookout, opt-in (issue 23): `hooks install --answer codex` adds a
// PermissionRequest hook that waits (at most 20 s) on a running Lookout before Codex shows its own
// prompt; "Answer in terminal" (`lookout answer <session> terminal`) lets it go at once.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { codex } from '../lab/agents/codex';
import { answerWhenDue, modelReceives } from '../lab/answering';
import { installed, scenarios, suiteName } from '../lab/suite';
import { waitFor } from '../../wait';

describe.skipIf(!installed(codex))(`${suiteName(codex)}: answering from Lookout (--answer codex)`, () => {
  const start = scenarios(codex);
  const shell = (file: string) => [
    { kind: 'tool' as const, call: codex.tools.guardedShell(`touch ${file}`) },
    { kind: 'text' as const, text: 'Done with it.' },
  ];

  it('R70 an approval allowed with `lookout answer` runs the command; Codex never showed its own prompt', async () => {
    const lab = await start({ name: 'answer-allow', hooks: true, answer: true, watch: true, replies: shell('allowed.txt') });
    await lab.prompt('make the file');
    const row = await lab.expectRow(
      'answerable while Codex waits for Lookout',
      (row) => row.answer?.state === 'open' && row.answer.text.includes('touch allowed.txt'),
    );
    expect(row.answer?.state === 'open' && row.answer.serial).toBe(true);
    expect(codex.asksPermission(lab.tmux.screen())).toBe(false);
    await answerWhenDue(lab, row, 'allow');
    await waitFor(
      'the allowed command ran',
      () => (existsSync(lab.projectFile('allowed.txt')) ? true : undefined),
      () => lab.tmux.screen(),
    );
    const done = await lab.expectRow('finished', (row) => row.observed.state === 'idle' && row.observed.reason === 'turn-finished');
    expect(lab.explain(done)).toMatch(/allowed from cli — req_[0-9a-f]+ \(Bash: touch allowed\.txt/);
  });

  it('R71 an approval denied with a message: the command does not run and the model reads the message', async () => {
    const lab = await start({ name: 'answer-deny', hooks: true, answer: true, watch: true, replies: shell('denied.txt') });
    await lab.prompt('make the file');
    const row = await lab.expectRow('answerable', (row) => row.answer?.state === 'open');
    await answerWhenDue(lab, row, 'deny', '--message', 'Not this one, lab says');
    await modelReceives(lab, 'Not this one, lab says');
    expect(existsSync(lab.projectFile('denied.txt'))).toBe(false);
  });

  it('R74 "answer in terminal" lets the hook go at once: Codex shows its own prompt, answered there', async () => {
    const lab = await start({ name: 'answer-release', hooks: true, answer: true, watch: true, replies: shell('by-hand.txt') });
    await lab.prompt('make the file');
    const row = await lab.expectRow('answerable', (row) => row.answer?.state === 'open');
    const result = lab.answer(row, 'terminal');
    expect(result.code, result.stderr).toBe(0);
    // Before the hook would have given up by itself: the terminal prompt came because Lookout let go.
    await lab.tmux.waitForScreen("Codex's own prompt", codex.asksPermission);
    expect(Date.now()).toBeLessThan(Date.parse(row.answer?.state === 'open' ? row.answer.deadline : ''));
    await lab.approve();
    await waitFor('the command ran', () => (existsSync(lab.projectFile('by-hand.txt')) ? true : undefined));
    const done = await lab.expectRow('finished', (row) => row.observed.state === 'idle');
    expect(lab.explain(done)).toMatch(/let go to the terminal from cli — req_/);
  });
});
