// Factory Droid's opt-in hooks (issue 24): Lookout's handler under `hooks` in ~/.factory/settings.json,
// installed and removed byte-exact; its payloads (shapes recorded from `droid exec` 0.225.2; the
// Notification types from the binary) read by the shared Claude-compatible reader, except Stop,
// which Droid fires after a failed turn too; and, through the real command line, what they change.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StandIns } from './stand-in';
import { afterAll, describe, expect, it } from 'vitest';
import type { Row, Snapshot } from '../../src/engine';
import { hookCommand, install, status, uninstall } from '../../src/main/hooks/installer';
import { DROID_EVENTS, readDroidHook } from '../../src/providers/droid/hooks';
import { runCli } from '../main/cli-process';
import type { TestContext } from './install-context';
import { installContext, providers } from './install-context';

const base = mkdtempSync(join(tmpdir(), 'lookout-droid-hooks-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** Settings as Droid writes them (two spaces), with a custom model and a hook of the user's own. */
const USER_SETTINGS = `${JSON.stringify(
  {
    customModels: [{ model: 'fake-model', baseUrl: 'http://127.0.0.1:8787/v1', apiKey: 'dummy', provider: 'generic-chat-completion-api' }],
    hooks: { PreToolUse: [{ matcher: 'Execute', hooks: [{ type: 'command', command: '~/guard.sh', timeout: 5 }] }] },
  },
  null,
  2,
)}\n`;

function context(): TestContext & { settings: string } {
  const c = installContext(base);
  const droid = join(c.dir, 'factory');
  mkdirSync(droid, { recursive: true });
  return { ...c, roots: { ...c.roots, droid }, settings: join(droid, 'settings.json') };
}

const read = (path: string): string => readFileSync(path, 'utf8');

describe('Droid hooks install / uninstall (settings.json)', () => {
  it("adds Lookout beside the user's hooks for each event (10 s, in seconds); uninstall restores the file byte for byte", () => {
    const c = context();
    writeFileSync(c.settings, USER_SETTINGS);
    expect(install(c, providers('droid')).lines.join('\n')).toContain('restart running Droid sessions');
    const installed = JSON.parse(read(c.settings)) as { customModels: unknown[]; hooks: Record<string, unknown[]> };
    expect(installed.customModels).toHaveLength(1);
    expect(Object.keys(installed.hooks).sort()).toEqual(DROID_EVENTS.map((spec) => spec.event).sort());
    const handler = { type: 'command', command: hookCommand(c, 'droid'), timeout: 10 };
    expect(installed.hooks.PreToolUse).toEqual([
      { matcher: 'Execute', hooks: [{ type: 'command', command: '~/guard.sh', timeout: 5 }] },
      { matcher: '*', hooks: [handler] },
    ]);
    expect(installed.hooks.SessionEnd).toEqual([{ hooks: [handler] }]);
    expect(status(c, providers('droid')).lines[0]).toMatch(/^droid: installed/);
    uninstall(c, providers('droid'));
    expect(read(c.settings)).toBe(USER_SETTINGS);
  });

  it('a missing settings file is created, then removed', () => {
    const c = context();
    install(c, providers('droid'));
    expect(JSON.parse(read(c.settings))).toHaveProperty('hooks.Stop');
    uninstall(c, providers('droid'));
    expect(() => read(c.settings)).toThrow();
  });
});

const SESSION = '7be3ca74-1d28-4f23-b34d-248e787cd352';
/** The envelope `droid exec` 0.225.2 handed its hooks in the lab (transcript_path shortened). */
const envelope = (event: string, extra: Record<string, unknown>) => ({
  session_id: SESSION,
  transcript_path: `/home/me/.factory/sessions/-home-me-app/${SESSION}.jsonl`,
  cwd: '/home/me/app',
  permission_mode: 'auto-low',
  hook_event_name: event,
  ...extra,
});
const SHELL = { summary: 'make a file', command: 'touch droid-made.txt', riskLevelReason: 'creates one file', riskLevel: 'low' };

describe('Droid hook payloads', () => {
  const fact = (payload: Record<string, unknown>) => readDroidHook(payload, 'hook').fact;

  it('R1 only a prompt shown asks the user (Notification permission_prompt, elicitation_dialog); tools are marks of work', () => {
    expect(
      readDroidHook(envelope('Notification', { message: 'Factory CLI needs permission to execute 1 tool(s)', notification_type: 'permission_prompt' }), 'hook'),
    ).toEqual({
      sessionId: SESSION,
      cwd: '/home/me/app',
      agentId: null,
      fact: { kind: 'event', event: 'permission-request', detail: 'Factory CLI needs permission to execute 1 tool(s)', vague: true },
    });
    expect(fact(envelope('Notification', { message: 'Factory CLI is asking the user 1 question(s)', notification_type: 'elicitation_dialog' }))).toMatchObject({
      event: 'input-request',
    });
    expect(fact(envelope('PreToolUse', { tool_name: 'Execute', tool_input: SHELL }))).toMatchObject({
      kind: 'event',
      event: 'mid-turn',
      detail: 'Execute: touch droid-made.txt',
      call: { asks: null },
    });
    expect(fact(envelope('PostToolUse', { tool_name: 'Execute', tool_input: SHELL, tool_response: 'Command completed successfully' }))).toMatchObject({
      event: 'mid-turn',
    });
    expect(fact(envelope('SessionStart', { source: 'startup' }))).toEqual({ kind: 'ignored' });
  });

  it('Stop says only that the turn is over (Droid fires it after a failure too); SessionEnd ends the session; the idle notice after an interrupt is no request', () => {
    expect(fact(envelope('Stop', { message_id: 'm1', stop_hook_active: false, tool_execution_count: 0, elapsed_time: 0 }))).toEqual({
      kind: 'event',
      event: 'idle-notice',
      detail: null,
    });
    expect(fact(envelope('SessionEnd', { reason: 'prompt_input_exit', session_duration_ms: 5000, message_count: 3 }))).toEqual({
      kind: 'event',
      event: 'session-end',
      detail: 'prompt_input_exit',
    });
    expect(fact(envelope('Notification', { message: 'Agent stopped by user and is waiting for input', notification_type: 'idle_prompt' }))).toMatchObject({
      event: 'idle-notice',
    });
  });
});

describe('Droid hooks as direct evidence (lookout status --json)', () => {
  const T0 = Date.parse('2026-12-01T20:18:23.000Z');
  const iso = (seconds: number): string => new Date(T0 + seconds * 1000).toISOString();
  const NOW = iso(60);

  // A stand-in for Droid's process in the session's folder (Droid records no pid: Lookout looks for it).
  const standIns = new StandIns(base);
  afterAll(() => standIns.stop());
  const standIn = (project: string): Promise<void> => standIns.start(project, 'droid');

  async function setup(lines: (project: string) => object[]): Promise<{ home: string; env: Record<string, string>; transcript: string }> {
    const dir = mkdtempSync(join(base, 'cli-'));
    const project = realpathSync(mkdtempSync(join(base, 'project-')));
    await standIn(project);
    const folder = join(dir, 'home', '.factory', 'sessions', '-project');
    mkdirSync(folder, { recursive: true });
    const transcript = join(folder, `${SESSION}.jsonl`);
    writeFileSync(
      transcript,
      `${lines(project)
        .map((record) => JSON.stringify(record))
        .join('\n')}\n`,
    );
    const home = join(dir, 'lookout');
    // FACTORY_HOME_OVERRIDE names the home whose .factory is read; no other agent's folder exists.
    const none = join(dir, 'none');
    const env = {
      HOME: join(dir, 'elsewhere'),
      FACTORY_HOME_OVERRIDE: join(dir, 'home'),
      LOOKOUT_HOME: home,
      CLAUDE_CONFIG_DIR: none,
      CODEX_HOME: none,
      COPILOT_HOME: none,
      OPENCODE_DATA_DIR: none,
      KILO_DATA_DIR: none,
      GEMINI_CLI_HOME: none,
    };
    return { home, env, transcript };
  }
  const start = (project: string) => [
    { type: 'session_start', id: SESSION, title: 'make the file', owner: 'unknown', version: 2, cwd: project, hostId: 'h', isSessionTitleManuallySet: false },
    {
      type: 'message',
      id: 'p1',
      parentId: 'context-p1',
      timestamp: iso(1),
      message: { role: 'user', content: [{ type: 'text', text: 'make the file' }], interactionMode: 'auto' },
    },
  ];
  const spoolAt = (home: string, seconds: number, payload: Record<string, unknown>): void => {
    mkdirSync(join(home, 'spool'), { recursive: true, mode: 0o700 });
    writeFileSync(
      join(home, 'spool', 'droid.jsonl'),
      `${JSON.stringify({ payload, provider: 'droid', at: T0 + seconds * 1000, precision: 'ms', channel: 'hook' })}\n`,
      { flag: 'a' },
    );
  };
  const row = (env: Record<string, string>): Row | undefined => {
    const result = runCli(['status', '--json', '--all', '--now', NOW], env);
    expect(result.code, result.stderr).toBe(0);
    return (JSON.parse(result.stdout) as Snapshot).sessions.find((item) => item.key === `droid:${SESSION}`);
  };

  it('R3/R8 the file alone says "may be waiting"; the permission notification makes it awaiting approval (direct); the result written answers it', async () => {
    const { home, env, transcript } = await setup((project) => [
      ...start(project),
      {
        type: 'message',
        id: 'a1',
        timestamp: iso(2),
        message: { role: 'assistant', content: [{ type: 'tool_use', id: 'c1', name: 'Execute', input: SHELL }] },
      },
    ]);
    expect(row(env)?.observed).toMatchObject({ state: 'unknown', reason: 'tool-pending', source: 'droid.session', detail: 'Execute: touch droid-made.txt' });
    spoolAt(home, 2.1, envelope('PreToolUse', { tool_name: 'Execute', tool_input: SHELL }));
    spoolAt(home, 2.2, envelope('Notification', { message: 'Factory CLI needs permission to execute 1 tool(s)', notification_type: 'permission_prompt' }));
    const asking = row(env);
    expect(asking?.observed).toMatchObject({ state: 'awaiting-approval', reason: 'approval-requested', confidence: 'direct', source: 'droid.hook' });
    expect(asking?.claim?.kind).toBe('needs-you');
    expect(asking?.answer).toMatchObject({ state: 'unavailable' });
    writeFileSync(
      transcript,
      `${JSON.stringify({ type: 'message', id: 'r1', timestamp: iso(30), message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'c1', is_error: false, content: 'ok' }] } })}\n`,
      { flag: 'a' },
    );
    expect(row(env)?.observed).toMatchObject({ state: 'running', confidence: 'inferred' });
  });

  it("R8 a failed turn's Stop does not read finished: the outcome says how it ended (error); SessionEnd then ends the session", async () => {
    const { home, env } = await setup((project) => [
      ...start(project),
      {
        type: 'message',
        id: 'n1',
        timestamp: iso(2),
        message: { role: 'user', content: [{ type: 'text', text: 'BYOK Error: 401 bad key\n\nUpstream error: bad key' }], visibility: 'user_only' },
      },
      { type: 'agent_turn_outcome', turnId: 'p1', reason: 'model_authentication_failed', resultKind: 'text' },
    ]);
    spoolAt(home, 2.3, envelope('Stop', { message_id: 'm1', stop_hook_active: false, tool_execution_count: 0, elapsed_time: 0 }));
    expect(row(env)?.observed).toMatchObject({ state: 'error', reason: 'api-error', detail: 'BYOK Error: 401 bad key' });
    spoolAt(home, 2.4, envelope('SessionEnd', { reason: 'other', session_duration_ms: 289, message_count: 5 }));
    expect(row(env)?.observed).toMatchObject({ state: 'ended', reason: 'session-end-hook', confidence: 'direct' });
  });
});
