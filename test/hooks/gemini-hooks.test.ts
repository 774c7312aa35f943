// Gemini CLI's opt-in hooks (issue 24): Lookout's handler under `hooks` in the user's
// ~/.gemini/settings.json, installed and removed byte-exact; its payloads (shapes recorded from
// 0.61.0 in the live lab) read as requests only where the CLI shows a prompt; and, through the
// real command line, a prompt shown turns the chat's "may be waiting" into awaiting approval.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StandIns } from './stand-in';
import { afterAll, describe, expect, it } from 'vitest';
import type { Row, Snapshot } from '../../src/engine';
import { hookCommand, install, status, uninstall } from '../../src/main/hooks/installer';
import { GEMINI_EVENTS, readGeminiHook } from '../../src/providers/gemini/hooks';
import { runCli } from '../main/cli-process';
import type { TestContext } from './install-context';
import { installContext, providers } from './install-context';

const base = mkdtempSync(join(tmpdir(), 'lookout-gemini-hooks-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** The settings a Gemini CLI user has: auth, a UI choice, and a hook of their own (four-space indent). */
const USER_SETTINGS = `{
    "security": { "auth": { "selectedType": "gemini-api-key" } },
    "ui": { "theme": "GitHub" },
    "hooks": {
        "BeforeTool": [ { "matcher": "run_shell_command", "hooks": [ { "type": "command", "command": "~/guard.sh", "timeout": 2000 } ] } ]
    }
}
`;

function context(): TestContext & { gemini: string; settings: string } {
  const c = installContext(base);
  const gemini = join(c.dir, 'gemini');
  mkdirSync(gemini, { recursive: true });
  return { ...c, roots: { ...c.roots, gemini }, gemini, settings: join(gemini, 'settings.json') };
}

const read = (path: string): string => readFileSync(path, 'utf8');

describe('Gemini CLI hooks install / uninstall (settings.json)', () => {
  it("adds Lookout beside the user's hooks for each event, returning at once (5 s at most, in ms); uninstall restores the file byte for byte", () => {
    const c = context();
    writeFileSync(c.settings, USER_SETTINGS);
    const lines = install(c, providers('gemini')).lines;
    expect(lines.join('\n')).toContain('restart running Gemini sessions');
    const installed = JSON.parse(read(c.settings)) as { security: unknown; hooks: Record<string, unknown[]> };
    expect(installed.security).toEqual({ auth: { selectedType: 'gemini-api-key' } });
    expect(Object.keys(installed.hooks).sort()).toEqual(GEMINI_EVENTS.map((spec) => spec.event).sort());
    const handler = { type: 'command', command: hookCommand(c, 'gemini'), name: 'lookout', timeout: 5000 };
    expect(installed.hooks.BeforeTool).toEqual([
      { matcher: 'run_shell_command', hooks: [{ type: 'command', command: '~/guard.sh', timeout: 2000 }] },
      { matcher: '*', hooks: [handler] },
    ]);
    // Lifecycle events take no matcher: the CLI matches them on the trigger (startup, exit, …).
    expect(installed.hooks.Notification).toEqual([{ hooks: [handler] }]);
    expect(installed.hooks.SessionEnd).toEqual([{ hooks: [handler] }]);
    expect(read(c.settings)).toContain('\n    "security"');
    expect(status(c, providers('gemini')).lines[0]).toMatch(/^gemini: installed/);
    expect(install(c, providers('gemini')).lines[0]).toContain('already installed');
    uninstall(c, providers('gemini'));
    expect(read(c.settings)).toBe(USER_SETTINGS);
  });

  it("the lab's own settings (no hooks yet, two-space indent) round-trip byte for byte; a missing file is created and removed", () => {
    const c = context();
    const mine = `${JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } }, privacy: { usageStatisticsEnabled: false } }, null, 2)}\n`;
    writeFileSync(c.settings, mine);
    install(c, providers('gemini'));
    expect(read(c.settings)).toContain('"BeforeAgent"');
    uninstall(c, providers('gemini'));
    expect(read(c.settings)).toBe(mine);

    const fresh = context();
    install(fresh, providers('gemini'));
    expect(JSON.parse(read(fresh.settings))).toHaveProperty('hooks.AfterAgent');
    uninstall(fresh, providers('gemini'));
    expect(() => read(fresh.settings)).toThrow();
  });
});

/** The payloads Gemini CLI 0.61.0 handed its hooks in the lab (transcript_path left out). */
const SESSION = '61e26d5c-8df0-42d7-b67e-20356f7ce78e';
const envelope = (event: string, extra: Record<string, unknown>) => ({
  session_id: SESSION,
  cwd: '/home/me/app',
  hook_event_name: event,
  timestamp: '2026-12-01T20:14:55.881Z',
  ...extra,
});
const SHELL = { command: 'touch t.txt', description: 'Run a lab command' };
const ASK = { questions: [{ question: 'Which colour?', header: 'Lab', type: 'choice', options: [{ label: 'Red', description: 'Choose Red' }] }] };

describe('Gemini CLI hook payloads', () => {
  it("R1 only a prompt the CLI shows asks the user: Notification ToolPermission, and ask_user's BeforeTool", () => {
    const fact = (payload: Record<string, unknown>) => readGeminiHook(payload).fact;
    expect(
      readGeminiHook(
        envelope('Notification', {
          notification_type: 'ToolPermission',
          message: 'Tool Confirm Shell Command requires execution',
          details: { type: 'exec', title: 'Confirm Shell Command', command: 'touch t.txt', rootCommand: 'touch' },
        }),
      ),
    ).toEqual({
      sessionId: SESSION,
      cwd: '/home/me/app',
      agentId: null,
      fact: { kind: 'event', event: 'permission-request', detail: 'Shell: touch t.txt' },
    });
    expect(
      fact(
        envelope('Notification', {
          notification_type: 'ToolPermission',
          message: 'Tool Edit requires editing',
          details: { type: 'edit', title: 'Edit', fileName: 'a.ts', filePath: '/home/me/app/a.ts' },
        }),
      ),
    ).toEqual({ kind: 'event', event: 'permission-request', detail: 'Edit: /home/me/app/a.ts' });
    expect(fact(envelope('BeforeTool', { tool_name: 'ask_user', tool_input: ASK }))).toEqual({
      kind: 'event',
      event: 'input-request',
      detail: 'asks: Which colour?',
    });
    expect(
      fact(
        envelope('Notification', {
          notification_type: 'ToolPermission',
          message: 'Tool requires confirmation',
          details: { type: 'ask_user', title: 'Ask User' },
        }),
      ),
    ).toEqual({ kind: 'event', event: 'input-request', detail: 'asks a question', vague: true });
    // Tools run without asking fire BeforeTool too: a mark of work, never a request.
    expect(fact(envelope('BeforeTool', { tool_name: 'run_shell_command', tool_input: SHELL }))).toEqual({
      kind: 'event',
      event: 'mid-turn',
      detail: 'run_shell_command: touch t.txt',
    });
    expect(fact(envelope('AfterTool', { tool_name: 'run_shell_command', tool_input: SHELL, tool_response: { llmContent: 'ok' } }))).toMatchObject({
      event: 'mid-turn',
    });
    expect(fact(envelope('BeforeAgent', { prompt: 'go' }))).toMatchObject({ event: 'mid-turn' });
  });

  it('AfterAgent fires however the turn ended (answered, cancelled, failed): the turn is over, and the chat says how', () => {
    expect(readGeminiHook(envelope('AfterAgent', { prompt: 'long one', prompt_response: 'Long…', stop_hook_active: false })).fact).toEqual({
      kind: 'event',
      event: 'idle-notice',
      detail: null,
    });
    expect(readGeminiHook(envelope('SessionStart', { source: 'startup' })).fact).toMatchObject({ event: 'settled' });
    expect(readGeminiHook(envelope('SessionEnd', { reason: 'exit' })).fact).toEqual({ kind: 'event', event: 'session-end', detail: 'exit' });
    // Fired every turn, whatever the history's size: nothing about the user.
    expect(readGeminiHook(envelope('PreCompress', { trigger: 'auto' })).fact).toEqual({ kind: 'ignored' });
  });
});

describe('Gemini CLI hooks as direct evidence (lookout status --json)', () => {
  const T0 = Date.parse('2026-12-01T13:32:14.000Z');
  const iso = (seconds: number): string => new Date(T0 + seconds * 1000).toISOString();
  const NOW = iso(60);

  // A stand-in for the CLI's process in the session's folder (the CLI records no pid: Lookout looks for it).
  const standIns = new StandIns(base);
  afterAll(() => standIns.stop());
  const standIn = (project: string): Promise<void> => standIns.start(project, 'gemini.js');

  async function setup(): Promise<{ home: string; env: Record<string, string>; chat: string }> {
    const dir = mkdtempSync(join(base, 'cli-'));
    const project = realpathSync(mkdtempSync(join(base, 'project-')));
    await standIn(project);
    const folder = join(dir, 'home', '.gemini', 'tmp', 'app');
    mkdirSync(join(folder, 'chats'), { recursive: true });
    writeFileSync(join(folder, '.project_root'), project);
    const chat = join(folder, 'chats', 'session-2026-12-01T13-31-61e26d5c.jsonl');
    const records = [
      { sessionId: SESSION, projectHash: 'ab', startTime: iso(0), lastUpdated: iso(0), kind: 'main' },
      { id: 'p1', timestamp: iso(1), type: 'user', content: [{ text: 'make the file' }] },
      { id: 'g1', timestamp: iso(2), type: 'gemini', content: '', thoughts: [], model: 'gemini-3.8-flash' },
    ];
    writeFileSync(chat, `${records.map((record) => JSON.stringify(record)).join('\n')}\n`);
    const home = join(dir, 'lookout');
    // GEMINI_CLI_HOME names the home whose .gemini is read. No other agent's folder exists.
    const env = {
      HOME: join(dir, 'home'),
      GEMINI_CLI_HOME: join(dir, 'home'),
      LOOKOUT_HOME: home,
      CLAUDE_CONFIG_DIR: join(dir, 'none'),
      CODEX_HOME: join(dir, 'none'),
      COPILOT_HOME: join(dir, 'none'),
      OPENCODE_DATA_DIR: join(dir, 'none'),
      KILO_DATA_DIR: join(dir, 'none'),
    };
    return { home, env, chat };
  }
  const spoolAt = (home: string, seconds: number, payload: Record<string, unknown>): void => {
    mkdirSync(join(home, 'spool'), { recursive: true, mode: 0o700 });
    writeFileSync(
      join(home, 'spool', 'gemini.jsonl'),
      `${JSON.stringify({ payload, provider: 'gemini', at: T0 + seconds * 1000, precision: 'ms', channel: 'hook' })}\n`,
      { flag: 'a' },
    );
  };
  const row = (env: Record<string, string>): Row | undefined => {
    const result = runCli(['status', '--json', '--all', '--now', NOW], env);
    expect(result.code, result.stderr).toBe(0);
    return (JSON.parse(result.stdout) as Snapshot).sessions.find((item) => item.key === `gemini:${SESSION}`);
  };

  it('R3/R8 the chat alone says "may be waiting"; the ToolPermission notification makes it awaiting approval (direct); the call written back answers it', async () => {
    const { home, env, chat } = await setup();
    // Without the hooks this is the test of the CLI reading GEMINI_CLI_HOME/.gemini too.
    expect(row(env)?.observed).toMatchObject({ state: 'unknown', reason: 'tool-pending', confidence: 'inferred', source: 'gemini.chat' });
    spoolAt(home, 2.1, envelope('BeforeTool', { tool_name: 'run_shell_command', tool_input: SHELL }));
    spoolAt(
      home,
      2.2,
      envelope('Notification', {
        notification_type: 'ToolPermission',
        message: 'Tool Confirm Shell Command requires execution',
        details: { type: 'exec', title: 'Confirm Shell Command', command: 'touch t.txt' },
      }),
    );
    const asking = row(env);
    expect(asking?.observed).toMatchObject({
      state: 'awaiting-approval',
      reason: 'approval-requested',
      confidence: 'direct',
      source: 'gemini.hook',
      detail: 'Shell: touch t.txt',
    });
    expect(asking?.claim?.kind).toBe('needs-you');
    expect(asking?.answer).toMatchObject({ state: 'unavailable' });
    const call = { id: 'c1', name: 'run_shell_command', args: { command: 'touch t.txt' }, status: 'success', timestamp: iso(30) };
    writeFileSync(chat, `${JSON.stringify({ id: 'g1', timestamp: iso(2), type: 'gemini', content: '', model: 'gemini-3.8-flash', toolCalls: [call] })}\n`, {
      flag: 'a',
    });
    expect(row(env)?.observed).toMatchObject({ state: 'running', confidence: 'inferred' });
  });
});
