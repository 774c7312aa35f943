// Issue 16: `lookout completion bash|zsh|fish`, run in the real shells: commands, options, review
// states and session ids complete. Each shell's part skips, saying why, where it is missing
// (.ci/run installs them). Fixtures: Claude Code 2.1.143.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { commandTable } from '../../../src/main/cli/command-table';
import { CLI, runCli } from '../cli-process';
import { FIXTURES, fixtures } from '../../providers/fixture-roots';

const base = mkdtempSync(join(tmpdir(), 'lookout-completion-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
for (const name of ['question-pending', 'working']) cpSync(join(FIXTURES, 'claude', name), join(base, 'claude'), { recursive: true });
// A transcript whose session id is shell text: it never reaches a shell's completion.
const pwned = join(base, 'pwned');
mkdirSync(join(base, 'claude', 'projects', '-evil'), { recursive: true });
writeFileSync(
  join(base, 'claude', 'projects', '-evil', 'evil.jsonl'),
  `${JSON.stringify({ type: 'user', sessionId: `c1a$(touch ${pwned})`, cwd: '/tmp', timestamp: '2026-11-29T12:00:00.000Z', uuid: 'e1', parentUuid: null, isSidechain: false, version: '2.1.143', message: { role: 'user', content: 'hi' } })}\n`,
);
const env = { CLAUDE_CONFIG_DIR: join(base, 'claude'), CODEX_HOME: join(base, 'codex'), LOOKOUT_HOME: join(base, 'home'), HOME: base, PATH: '/usr/bin:/bin' };
const ids = ['question-pending', 'working'].map(
  (name) =>
    fixtures('claude')
      .find((item) => item.name === name)
      ?.meta.sessionKey.slice('claude:'.length) ?? '',
);
const has = (shell: string): boolean => spawnSync('sh', ['-c', `command -v ${shell}`]).status === 0;
for (const shell of ['bash', 'zsh', 'fish'])
  if (!has(shell)) console.log(`completion test for ${shell} skipped: ${shell} is not installed (.ci/run installs it)`);

function script(shell: string): string {
  const result = runCli(['completion', shell], env);
  expect(result.code, result.stderr).toBe(0);
  const path = join(base, `lookout.${shell}`);
  writeFileSync(path, result.stdout);
  return path;
}

function run(shell: string, code: string): string[] {
  const result = spawnSync(shell, shell === 'zsh' ? ['-f', '-c', code] : ['-c', code], { env, encoding: 'utf8', timeout: 60_000 });
  expect(result.status, result.stderr).toBe(0);
  return result.stdout.split('\n').filter((line) => line !== '');
}

describe('shell completion (issue 16)', () => {
  it('every option the table completes is in the help of its command', () => {
    const help = runCli(['--help'], env).stdout;
    for (const spec of commandTable()) {
      const line = help
        .split('\n')
        .filter((item) => item.startsWith(`  ${spec.name} `))
        .join(' ');
      for (const option of spec.options.filter((item) => item !== '--now')) expect(line, `${spec.name} ${option}`).toContain(option);
    }
    expect(runCli(['completion', 'tcsh'], env)).toMatchObject({ code: 2, stderr: 'lookout: completion needs a shell: bash, zsh, fish\n' });
  });

  it.skipIf(!has('bash'))('bash: commands, options, review states, session ids', () => {
    const file = script('bash');
    const complete = (words: string[]) =>
      run(
        'bash',
        `source '${file}'; COMP_WORDS=(${words.map((word) => `'${word}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _lookout; printf '%s\\n' "\${COMPREPLY[@]}"`,
      );
    expect(complete(['lookout', 're'])).toEqual(['review']);
    expect(complete(['lookout', 'status', '--w'])).toEqual(['--wide']);
    expect(complete(['lookout', 'review', ids[0] ?? '', 'fl'])).toEqual(['flagged']);
    expect(complete(['lookout', 'mute', '--for', '2h', 'c1a']).sort()).toEqual([...ids].sort());
    expect(complete(['lookout', 'hooks', '--provider', 'co'])).toEqual(['codex', 'copilot']);
    // Every agent in the registry, those without hooks too (a rule may name any of them).
    expect(complete(['lookout', 'rules', '--provider', 'p'])).toEqual(['pi']);
    // The shell-text id was neither offered nor run.
    expect(existsSync(pwned)).toBe(false);
    expect(runCli(['__sessions'], env).stdout).not.toContain('touch');
  });

  it.skipIf(!has('zsh'))('zsh: the same, through compadd', () => {
    const file = script('zsh');
    const complete = (words: string[]) =>
      run(
        'zsh',
        `compadd() { while [[ $1 != -- ]]; do shift; done; shift; print -l -- "$@"; }; source '${file}'; words=(${words.map((word) => `'${word}'`).join(' ')}); CURRENT=${words.length}; _lookout`,
      );
    expect(complete(['lookout', 're'])).toContain('review');
    expect(complete(['lookout', 'status', '--w'])).toContain('--wide');
    expect(complete(['lookout', 'review', ids[0] ?? '', 'fl'])).toContain('flagged');
    expect(complete(['lookout', 'open', 'c1a']).sort()).toEqual([...ids].sort());
  });

  it.skipIf(!has('fish'))("fish: the same, with each session's title beside its id", () => {
    const file = script('fish');
    const complete = (line: string) => run('fish', `source '${file}'; complete -C '${line}'`);
    expect(complete('lookout re')).toEqual(expect.arrayContaining([expect.stringMatching(/^review/)]));
    expect(complete('lookout status --w')).toEqual(expect.arrayContaining([expect.stringMatching(/^--wide/)]));
    expect(complete(`lookout review ${ids[0]} fl`)).toEqual([expect.stringMatching(/^flagged/)]);
    const sessions = complete('lookout explain c1a');
    expect(sessions.map((line) => line.split('\t')[0]).sort()).toEqual([...ids].sort());
    expect(sessions.find((line) => line.startsWith(ids[0] ?? ''))).toContain('set up the db');
  });

  it.skipIf(!has('fish'))("issue 25 item 11: an install path with \\' is quoted for fish: the script loads, TAB runs that Lookout and nothing else", () => {
    // fish reads \\ and \' inside single quotes, so POSIX quoting ('\\'') ends the quote early there.
    // POSIX quoting turns this folder's name into a command substitution fish runs on TAB (in HOME).
    const owned = join(base, 'owned');
    const folder = join(base, "x\\'(cd; touch owned)\\'");
    mkdirSync(folder);
    const cli = join(folder, 'cli.cjs');
    symlinkSync(CLI, cli);
    const result = runCli(['completion', 'fish'], env, undefined, cli);
    expect(result.code, result.stderr).toBe(0);
    const file = join(base, 'lookout-odd-path.fish');
    writeFileSync(file, result.stdout);
    const sessions = run('fish', `source '${file}'; and complete -C 'lookout explain c1a'`);
    expect(sessions.map((line) => line.split('\t')[0]).sort()).toEqual([...ids].sort());
    expect(existsSync(owned)).toBe(false);
  });
});
