// Qwen Code's opt-in hooks (issue 24): Lookout's handler under `hooks` in $QWEN_HOME/settings.json,
// installed and removed byte-exact, each handler in the background (`async`) so none holds a
// prompt; its payloads (shapes recorded from 0.24.4 in the live lab) read as Claude Code's; and,
// through the real command line, the prompt heard turns the chat's "may be waiting" into awaiting
// approval, which the cancelled call written after it answers.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Row, Snapshot } from '../../src/engine';
import { hookCommand, install, status, uninstall } from '../../src/main/hooks/installer';
import { CLAUDE_EVENTS } from '../../src/providers/claude/descriptor';
import { readQwenHook } from '../../src/providers/qwen/hooks';
import { runCli } from '../main/cli-process';
import { SESSION, T0, api, call, iso, lines, prompt, result } from '../providers/qwen-lines';
import type { TestContext } from './install-context';
import { installContext, providers } from './install-context';

const base = mkdtempSync(join(tmpdir(), 'lookout-qwen-hooks-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** A Qwen Code user's settings: auth, approval mode, and a hook of their own (two-space indent, as Qwen writes it). */
const USER_SETTINGS = `{
  "security": {
    "auth": {
      "selectedType": "openai"
    }
  },
  "tools": {
    "approvalMode": "default"
  },
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "run_shell_command",
        "hooks": [
          {
            "type": "command",
            "command": "~/guard.sh",
            "timeout": 5
          }
        ]
      }
    ]
  },
  "$version": 3
}
`;

function context(): TestContext & { settings: string } {
  const c = installContext(base);
  const qwen = join(c.dir, 'qwen');
  mkdirSync(qwen, { recursive: true });
  return { ...c, roots: { ...c.roots, qwen }, settings: join(qwen, 'settings.json') };
}

const read = (path: string): string => readFileSync(path, 'utf8');

describe('Qwen Code hooks install / uninstall (settings.json)', () => {
  it("adds Lookout beside the user's hooks for each event, in the background (async, 10 s); uninstall restores the file byte for byte", () => {
    const c = context();
    writeFileSync(c.settings, USER_SETTINGS);
    expect(install(c, providers('qwen')).lines.join('\n')).toContain('restart running Qwen Code sessions');
    const installed = JSON.parse(read(c.settings)) as { security: unknown; hooks: Record<string, unknown[]> };
    expect(installed.security).toEqual({ auth: { selectedType: 'openai' } });
    expect(Object.keys(installed.hooks).sort()).toEqual(CLAUDE_EVENTS.map((spec) => spec.event).sort());
    const handler = { type: 'command', command: hookCommand(c, 'qwen'), timeout: 10, async: true };
    expect(installed.hooks.PreToolUse).toEqual([
      { matcher: 'run_shell_command', hooks: [{ type: 'command', command: '~/guard.sh', timeout: 5 }] },
      { matcher: '*', hooks: [handler] },
    ]);
    // The prompt Lookout watches for must never wait on Lookout: no handler may block.
    for (const groups of Object.values(installed.hooks)) {
      for (const group of groups as { hooks: { command: string; async?: boolean }[] }[]) {
        for (const entry of group.hooks) if (entry.command === handler.command) expect(entry.async).toBe(true);
      }
    }
    expect(installed.hooks.PermissionRequest).toEqual([{ matcher: '*', hooks: [handler] }]);
    expect(installed.hooks.Stop).toEqual([{ hooks: [handler] }]);
    expect(status(c, providers('qwen')).lines[0]).toMatch(/^qwen: installed/);
    expect(install(c, providers('qwen')).lines[0]).toContain('already installed');
    uninstall(c, providers('qwen'));
    expect(read(c.settings)).toBe(USER_SETTINGS);
  });

  it('a missing settings file is created, and removed again by uninstall', () => {
    const c = context();
    install(c, providers('qwen'));
    expect(JSON.parse(read(c.settings))).toHaveProperty('hooks.StopFailure');
    uninstall(c, providers('qwen'));
    expect(() => read(c.settings)).toThrow();
  });
});

/** The payloads Qwen Code 0.24.4 handed its hooks in the lab (transcript_path left out). */
const envelope = (event: string, extra: Record<string, unknown>) => ({
  session_id: SESSION,
  cwd: '/home/dev/app',
  hook_event_name: event,
  timestamp: '2026-12-01T20:31:42.115Z',
  permission_mode: 'default',
  prompt_id: `${SESSION}########1`,
  ...extra,
});
const SHELL = { command: 'touch q.txt', description: 'Run a lab command' };

describe('Qwen Code hook payloads', () => {
  const fact = (payload: Record<string, unknown>) => readQwenHook(payload, 'hook').fact;

  it('R1 a PermissionRequest asks the user, named by its command; the permission_prompt notification after it only restates it', () => {
    expect(readQwenHook(envelope('PermissionRequest', { tool_name: 'run_shell_command', tool_input: SHELL }), 'hook')).toMatchObject({
      sessionId: SESSION,
      cwd: '/home/dev/app',
      agentId: null,
      fact: { kind: 'event', event: 'permission-request', detail: 'run_shell_command: touch q.txt' },
    });
    expect(
      fact(
        envelope('Notification', {
          message: 'Qwen Code needs your permission to use run_shell_command',
          notification_type: 'permission_prompt',
          title: 'Permission needed',
        }),
      ),
    ).toMatchObject({ event: 'permission-request', vague: true });
  });

  it("R3 Qwen's question and plan tools ask for an answer, not a permission", () => {
    const ask = {
      questions: [
        {
          question: 'Which colour?',
          header: 'Colour',
          options: [
            { label: 'Red', description: 'Warm' },
            { label: 'Blue', description: 'Cool' },
          ],
        },
      ],
    };
    expect(fact(envelope('PermissionRequest', { tool_name: 'ask_user_question', tool_input: ask }))).toMatchObject({
      kind: 'event',
      event: 'input-request',
      detail: 'asks: Which colour?',
      call: { asks: 'asks: Which colour?' },
    });
    expect(fact(envelope('PermissionRequest', { tool_name: 'exit_plan_mode', tool_input: { plan: 'x' } }))).toMatchObject({
      kind: 'event',
      event: 'input-request',
      detail: 'plan ready for approval',
    });
  });

  it("the idle notice Qwen sends each time it goes idle (after a cancel too), a failure in the server's words, work inside a subagent", () => {
    expect(
      fact(envelope('Notification', { message: 'Qwen Code is waiting for your input', notification_type: 'idle_prompt', title: 'Waiting for input' })),
    ).toEqual({ kind: 'event', event: 'idle-notice', detail: null });
    expect(
      fact(
        envelope('StopFailure', { error: 'authentication_failed', error_details: '401 lab bad key', last_assistant_message: '[API Error: 401 lab bad key]' }),
      ),
    ).toMatchObject({ kind: 'event', event: 'stop-failure', detail: '401 lab bad key' });
    expect(fact(envelope('UserPromptSubmit', { prompt: 'make the file', submitted_prompt: 'make the file' }))).toMatchObject({ event: 'mid-turn' });
    expect(
      readQwenHook(envelope('PermissionRequest', { tool_name: 'run_shell_command', tool_input: SHELL, agent_id: 'general-purpose-call_2' }), 'hook').agentId,
    ).toBe('general-purpose-call_2');
  });
});

describe('Qwen Code hooks as direct evidence (lookout status --json)', () => {
  const NOW = iso(60);

  function setup(): { home: string; env: Record<string, string>; chat: string } {
    const dir = mkdtempSync(join(base, 'cli-'));
    const qwen = join(dir, 'home', '.qwen');
    const chats = join(qwen, 'projects', '-home-dev-app', 'chats');
    mkdirSync(chats, { recursive: true });
    const chat = join(chats, `${SESSION}.jsonl`);
    writeFileSync(chat, lines(prompt(1, 'make the file'), api(2), call(2.1, 'call_1', 'run_shell_command', SHELL)));
    const home = join(dir, 'lookout');
    return { home, chat, env: { HOME: join(dir, 'home'), QWEN_HOME: qwen, LOOKOUT_HOME: home } };
  }
  const spoolAt = (home: string, seconds: number, payload: Record<string, unknown>): void => {
    mkdirSync(join(home, 'spool'), { recursive: true, mode: 0o700 });
    writeFileSync(
      join(home, 'spool', 'qwen.jsonl'),
      `${JSON.stringify({ payload, provider: 'qwen', at: T0 + seconds * 1000, precision: 'ms', channel: 'hook' })}\n`,
      { flag: 'a' },
    );
  };
  const row = (env: Record<string, string>): Row | undefined => {
    const result = runCli(['status', '--json', '--all', '--now', NOW], env);
    expect(result.code, result.stderr).toBe(0);
    return (JSON.parse(result.stdout) as Snapshot).sessions.find((item) => item.key === `qwen:${SESSION}`);
  };

  it('R3/R8 the chat alone says "may be waiting"; the PermissionRequest heard makes it awaiting approval (direct); Escape\'s cancelled call and idle notice answer it', () => {
    const { home, env, chat } = setup();
    expect(row(env)?.observed).toMatchObject({ state: 'unknown', reason: 'tool-pending', confidence: 'inferred', source: 'qwen.chat' });
    spoolAt(home, 2.2, envelope('PermissionRequest', { tool_name: 'run_shell_command', tool_input: SHELL }));
    spoolAt(
      home,
      2.21,
      envelope('Notification', {
        message: 'Qwen Code needs your permission to use run_shell_command',
        notification_type: 'permission_prompt',
        title: 'Permission needed',
      }),
    );
    const asking = row(env);
    expect(asking?.observed).toMatchObject({
      state: 'awaiting-approval',
      reason: 'approval-requested',
      confidence: 'direct',
      source: 'qwen.hook',
      detail: 'run_shell_command: touch q.txt',
    });
    expect(asking?.claim?.kind).toBe('needs-you');
    expect(asking?.answer).toMatchObject({ state: 'unavailable' });
    writeFileSync(chat, lines(result(5, 'call_1', 'cancelled')), { flag: 'a' });
    spoolAt(
      home,
      7,
      envelope('Notification', { message: 'Qwen Code is waiting for your input', notification_type: 'idle_prompt', title: 'Waiting for input' }),
    );
    expect(row(env)?.observed).toMatchObject({ state: 'idle', reason: 'interrupted' });
  });

  it("R8 Qwen's PreToolUse comes once the approved call runs: written after its PermissionRequest, it answers it (running, not awaiting approval)", () => {
    const { home, env } = setup();
    spoolAt(home, 2.2, envelope('PermissionRequest', { tool_name: 'run_shell_command', tool_input: SHELL }));
    expect(row(env)?.observed).toMatchObject({ state: 'awaiting-approval' });
    spoolAt(home, 3, envelope('PreToolUse', { tool_name: 'run_shell_command', tool_input: SHELL }));
    const running = row(env);
    expect(running?.observed).toMatchObject({ state: 'running', source: 'qwen.hook' });
    expect(running?.claim?.kind ?? 'none').not.toBe('needs-you');
  });

  it('R5 a StopFailure heard says the turn failed, before any retry count could', () => {
    const { home, env, chat } = setup();
    writeFileSync(chat, lines(prompt(10, 'again')), { flag: 'a' });
    spoolAt(home, 12, envelope('StopFailure', { error: 'server_error', error_details: '503 overloaded' }));
    expect(row(env)?.observed).toMatchObject({ state: 'error', reason: 'api-error', source: 'qwen.hook', detail: '503 overloaded' });
  });
});
