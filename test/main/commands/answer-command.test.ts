// `lookout answer` (cli.md, R70–R75): usage errors exit 2 saying what is wrong; a prompt that
// cannot be answered from here exits 1 with the reason, and nothing is sent.
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli-process';
import { fixtureHomes } from '../fixture-home';

const { home } = fixtureHomes('lk-answer-cli-');
const NOW = '2026-11-29T12:00:11.000Z';
const KEY = 'claude:c1a00000-0000-4000-8000-000000000029';

describe('lookout answer', () => {
  it.each([
    [['answer'], 'answer needs a session'],
    [['answer', KEY], 'answer takes allow, deny or terminal, or --option <n>… (one of them)'],
    [['answer', KEY, 'maybe'], 'answer takes allow, deny or terminal, or --option <n>… (got "maybe")'],
    [['answer', KEY, 'allow', '--option', '1'], 'answer takes allow, deny or terminal, or --option <n>… (one of them)'],
    [['answer', KEY, 'allow', '--message', 'hi'], '--message goes with deny'],
    [['answer', KEY, '--option', 'first'], "--option takes an option's number"],
    [['answer', KEY, 'allow', 'now'], 'answer takes a session and one answer'],
  ])('a bad argument exits 2 and says what is wrong: %j', (args, words) => {
    const result = runCli([...args, '--now', NOW], home(['question-pending']));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(words);
  });

  it('R70 a question no answering hook brought cannot be answered from here: exit 1 with the reason', () => {
    const result = runCli(['answer', KEY, '--option', '1', '--now', NOW], home(['question-pending']));
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/answer in the terminal/);
  });

  it('nothing waiting in a finished session: exit 1', () => {
    const result = runCli(['answer', 'claude:c1a00000-0000-4000-8000-000000000010', 'allow', '--now', '2026-11-29T12:10:00.000Z'], home(['fresh-tool']));
    expect(result.code).toBe(1);
    expect(result.stderr).not.toBe('');
  });
});
