// Issue 12: the opt-in direct evidence of the two newer agents. GitHub Copilot CLI: a hooks file
// of Lookout's own in $COPILOT_HOME/hooks/ (payloads: docs.github.com hooks reference, CLI 1.0.26+);
// opencode: a plugin of Lookout's own in its config folder (events: opencode's bus, 1.1+). Both
// installed and removed byte-exact, both read as requests only where the user is asked.
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { Row, Snapshot } from '../../src/engine';
import { install, shimEntries, status, uninstall } from '../../src/main/hooks/installer';
import { shimText } from '../../src/main/hooks/shim';
import { readCopilotHook } from '../../src/providers/copilot/hooks';
import { readOpencodeEvent } from '../../src/providers/opencode/plugin';
import { runCli } from '../main/cli-process';
import { FIXTURES, fixtures } from '../providers/fixture-roots';
import { T0, database } from '../providers/opencode-db';
import { installContext, providers } from './install-context';

const base = mkdtempSync(join(tmpdir(), 'lookout-new-hooks-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** Every file and folder under a root with its bytes and mode: "byte-exact" is this, unchanged. */
function tree(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (folder: string): void => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      const info = statSync(path);
      out[relative(root, path)] = info.isDirectory()
        ? `dir ${(info.mode & 0o777).toString(8)}`
        : `${(info.mode & 0o777).toString(8)} ${readFileSync(path, 'base64')}`;
      if (info.isDirectory()) walk(path);
    }
  };
  if (existsSync(root)) walk(root);
  return out;
}

function context(xdg = true) {
  const c = installContext(base);
  const copilot = join(c.dir, 'copilot');
  mkdirSync(copilot, { recursive: true });
  const env = xdg ? { HOME: c.dir, XDG_CONFIG_HOME: join(c.dir, 'xdg') } : { HOME: c.dir };
  return { ...c, copilot, roots: { ...c.roots, copilot }, env, hooksFile: join(copilot, 'hooks', 'lookout.json') };
}

describe("Copilot: a hooks file of Lookout's own in $COPILOT_HOME/hooks/", () => {
  it('install writes one file that runs the hook on the prompts shown and what answers them; uninstall leaves the folder byte-exact', () => {
    const c = context();
    mkdirSync(join(c.copilot, 'hooks'), { recursive: true });
    writeFileSync(join(c.copilot, 'hooks', 'mine.json'), '{"version":1,"hooks":{"sessionStart":[{"type":"command","bash":"echo hi"}]}}\n', { mode: 0o640 });
    const before = tree(c.copilot);
    const lines = install(c, providers('copilot')).lines;
    expect(lines.join('\n')).toContain('hooks file installed');
    const file = JSON.parse(readFileSync(c.hooksFile, 'utf8')) as {
      version: number;
      hooks: Record<string, { type: string; bash: string; timeoutSec: number }[]>;
    };
    expect(file.version).toBe(1);
    expect(Object.keys(file.hooks).sort()).toEqual(['agentStop', 'notification', 'postToolUse', 'postToolUseFailure', 'userPromptSubmitted']);
    // Not permissionRequest or preToolUse: they fire for auto-approved tools too.
    for (const handlers of Object.values(file.hooks))
      expect(handlers).toEqual([{ type: 'command', bash: `'${join(c.home, 'bin', 'lookout-hook')}' copilot`, timeoutSec: 10 }]);
    expect(status(c, providers('copilot')).lines[0]).toMatch(/^copilot: installed/);
    expect(install(c, providers('copilot')).lines.join('\n')).toContain('already installed');
    expect(uninstall(c, providers('copilot')).lines.join('\n')).toContain('removed');
    expect(tree(c.copilot)).toEqual(before);
  });

  it("a hooks folder Lookout made goes with the file; a file there that is not Lookout's is never written or removed", () => {
    const c = context();
    const before = tree(c.copilot);
    install(c, providers('copilot'));
    expect(existsSync(c.hooksFile)).toBe(true);
    uninstall(c, providers('copilot'));
    expect(tree(c.copilot)).toEqual(before);

    mkdirSync(join(c.copilot, 'hooks'));
    writeFileSync(c.hooksFile, '{"version":1,"hooks":{}}\n');
    expect(install(c, providers('copilot')).lines.join('\n')).toContain("not Lookout's");
    expect(readFileSync(c.hooksFile, 'utf8')).toBe('{"version":1,"hooks":{}}\n');
    expect(status(c, providers('copilot')).lines[0]).toContain("is not Lookout's");
    uninstall(c, providers('copilot'));
    expect(readFileSync(c.hooksFile, 'utf8')).toBe('{"version":1,"hooks":{}}\n');
  });

  it("Lookout's file edited by the user since is left in place on uninstall, and said so", () => {
    const c = context();
    install(c, providers('copilot'));
    writeFileSync(c.hooksFile, readFileSync(c.hooksFile, 'utf8').replace('"timeoutSec": 10', '"timeoutSec": 20'));
    expect(uninstall(c, providers('copilot')).lines.join('\n')).toContain('changed since Lookout wrote it; left in place');
    expect(existsSync(c.hooksFile)).toBe(true);
  });

  it('payloads: only a prompt the CLI shows asks the user; a tool hook (auto-approved or not) never does', () => {
    const session = { sessionId: 'c0911070-0000-4000-8000-000000000001', timestamp: T0, cwd: '/home/me/app' };
    expect(
      readCopilotHook({ ...session, hook_event_name: 'Notification', notification_type: 'permission_prompt', message: 'Allow bash: npm publish?' }),
    ).toEqual({
      sessionId: session.sessionId,
      cwd: '/home/me/app',
      agentId: null,
      fact: { kind: 'event', event: 'permission-request', detail: 'Allow bash: npm publish?' },
    });
    expect(
      readCopilotHook({ ...session, hook_event_name: 'Notification', notification_type: 'elicitation_dialog', message: 'Which environment?' }).fact,
    ).toEqual({ kind: 'event', event: 'input-request', detail: 'Which environment?' });
    expect(readCopilotHook({ ...session, toolName: 'view', toolArgs: '{"path":"README.md"}', toolResult: { resultType: 'success' } }).fact).toEqual({
      kind: 'event',
      event: 'settled',
      detail: null,
    });
    expect(readCopilotHook({ ...session, prompt: 'add a test' }).fact).toMatchObject({ event: 'settled' });
    expect(readCopilotHook({ ...session, hook_event_name: 'Notification', notification_type: 'shell_completed', message: 'done' }).fact).toEqual({
      kind: 'ignored',
    });
  });
});

describe('Copilot hooks as direct evidence (the real sh shim, lookout status --json)', () => {
  const fixture = fixtures('copilot').find((item) => item.name === 'tool-pending');
  const key = fixture?.meta.sessionKey ?? '';
  const sessionId = key.slice('copilot:'.length);
  const NOW = '2026-11-29T12:01:10.000Z';

  function setup() {
    const c = context();
    rmSync(c.copilot, { recursive: true, force: true });
    cpSync(join(FIXTURES, 'copilot', 'tool-pending'), c.copilot, { recursive: true });
    const shim = join(c.dir, 'lookout-hook');
    writeFileSync(shim, shimText(join(c.home, 'spool'), shimEntries()));
    chmodSync(shim, 0o755);
    const env = {
      HOME: c.dir,
      COPILOT_HOME: c.copilot,
      LOOKOUT_HOME: c.home,
      CLAUDE_CONFIG_DIR: join(c.dir, 'none'),
      CODEX_HOME: join(c.dir, 'none'),
      OPENCODE_DATA_DIR: join(c.dir, 'none'),
    };
    return { c, shim, env };
  }
  const row = (env: Record<string, string>): Row | undefined => {
    const result = runCli(['status', '--json', '--now', NOW], env);
    expect(result.code, result.stderr).toBe(0);
    return (JSON.parse(result.stdout) as Snapshot).sessions.find((item) => item.key === key);
  };
  /** The spool as the shim writes it, at a chosen instant of the fixture's time. */
  const spoolAt = (home: string, at: string, payload: Record<string, unknown>) => {
    mkdirSync(join(home, 'spool'), { recursive: true, mode: 0o700 });
    writeFileSync(
      join(home, 'spool', 'copilot.jsonl'),
      `${JSON.stringify({ payload, provider: 'copilot', at: Date.parse(at), precision: 'ms', channel: 'hook' })}\n`,
      { flag: 'a' },
    );
  };

  it('the shim records a notification payload on the copilot spool, as the CLI hands it on stdin', () => {
    const { c, shim } = setup();
    const payload = {
      sessionId,
      timestamp: Date.now(),
      cwd: '/home/me/app',
      hook_event_name: 'Notification',
      notification_type: 'permission_prompt',
      message: 'Allow bash?',
    };
    expect(spawnSync(shim, ['copilot'], { input: `${JSON.stringify(payload, null, 2)}\n`, timeout: 25_000 }).status).toBe(0);
    const [line] = readFileSync(join(c.home, 'spool', 'copilot.jsonl'), 'utf8')
      .split('\n')
      .map((text) => JSON.parse(text || 'null'));
    expect(line).toMatchObject({ provider: 'copilot', channel: 'hook', payload });
  });

  it('R3 a pending tool reads "may be waiting" without hooks; a permission_prompt makes it awaiting-approval, direct; the tool finishing settles it', () => {
    const { c, env } = setup();
    expect(row(env)?.observed).toMatchObject({ reason: 'tool-pending', confidence: 'inferred' });
    spoolAt(c.home, '2026-11-29T12:01:01.000Z', {
      sessionId,
      timestamp: 0,
      cwd: '/home/me/app',
      hook_event_name: 'Notification',
      notification_type: 'permission_prompt',
      message: 'Allow bash: npm publish?',
    });
    expect(row(env)?.observed).toMatchObject({
      state: 'awaiting-approval',
      reason: 'approval-requested',
      confidence: 'direct',
      source: 'copilot.hook',
      detail: 'Allow bash: npm publish?',
    });
    expect(row(env)?.claim?.kind).toBe('needs-you');
    spoolAt(c.home, '2026-11-29T12:01:05.000Z', {
      sessionId,
      timestamp: 0,
      cwd: '/home/me/app',
      toolName: 'bash',
      toolArgs: { command: 'npm publish' },
      toolResult: { resultType: 'success' },
    });
    expect(row(env)?.observed).toMatchObject({ reason: 'tool-pending', confidence: 'inferred' });
  });

  it('R1 hooks that fire for auto-approved tools never raise "needs you" on a running session', () => {
    const { c, env } = setup();
    spoolAt(c.home, '2026-11-29T12:01:08.000Z', {
      sessionId,
      timestamp: 0,
      cwd: '/home/me/app',
      toolName: 'view',
      toolArgs: { path: 'README.md' },
      toolResult: { resultType: 'success' },
    });
    const found = row(env);
    expect(found?.observed.state).not.toBe('awaiting-approval');
    expect(found?.observed.confidence).toBe('inferred');
  });
});

describe("opencode: a plugin of Lookout's own in its config folder", () => {
  it('install writes the plugin into plugins/ under XDG_CONFIG_HOME; uninstall removes it and the folders it made', () => {
    const c = context();
    const config = join(c.dir, 'xdg');
    mkdirSync(config, { recursive: true });
    const before = tree(config);
    const lines = install(c, providers('opencode')).lines;
    const path = join(config, 'opencode', 'plugins', 'lookout.js');
    expect(lines.join('\n')).toContain(`${path}: Lookout's opencode plugin installed`);
    expect(lines.join('\n')).toContain('restart running opencode sessions');
    expect(readFileSync(path, 'utf8')).toContain(JSON.stringify(join(c.home, 'spool')));
    expect(status(c, providers('opencode')).lines[0]).toMatch(/^opencode: installed/);
    expect(uninstall(c, providers('opencode')).lines.join('\n')).toContain('removed (with the folders made for it)');
    expect(tree(config)).toEqual(before);
  });

  it('~/.config/opencode without XDG_CONFIG_HOME; an existing plugin/ folder (older releases read only that) is used and kept', () => {
    const c = context(false);
    const config = join(c.dir, '.config', 'opencode');
    mkdirSync(join(config, 'plugin'), { recursive: true });
    writeFileSync(join(config, 'plugin', 'theirs.ts'), 'export const Theirs = async () => ({});\n');
    writeFileSync(join(config, 'opencode.json'), '{ "theme": "dark" }\n', { mode: 0o600 });
    const before = tree(config);
    install(c, providers('opencode'));
    expect(existsSync(join(config, 'plugin', 'lookout.js'))).toBe(true);
    expect(existsSync(join(config, 'plugins'))).toBe(false);
    uninstall(c, providers('opencode'));
    expect(tree(config)).toEqual(before);
  });

  it('the plugin, run as opencode runs it, appends only what Lookout reads, one line per event, and never throws', async () => {
    const c = context();
    install(c, providers('opencode'));
    const source = join(c.dir, 'xdg', 'opencode', 'plugins', 'lookout.js');
    // Node reads .js as CommonJS outside a module package: the same text as an .mjs, as Bun would load it.
    const copy = join(c.dir, 'lookout-plugin.mjs');
    cpSync(source, copy);
    const module = (await import(pathToFileURL(copy).href)) as Record<string, unknown>;
    // opencode calls every export as a plugin: there must be exactly one, a function.
    expect(Object.keys(module)).toEqual(['LookoutPlugin']);
    const plugin = module.LookoutPlugin as (input: { directory: string }) => Promise<{ event: (input: { event: unknown }) => Promise<void> }>;
    const hooks = await plugin({ directory: '/home/me/app' });
    const spool = join(c.home, 'spool', 'opencode.jsonl');
    await hooks.event({ event: { type: 'message.part.updated', properties: { sessionID: 'ses_a' } } });
    expect(existsSync(spool)).toBe(false);
    await hooks.event({
      event: {
        id: 'evt_1',
        type: 'permission.asked',
        properties: {
          id: 'per_1',
          sessionID: 'ses_a',
          permission: 'bash',
          patterns: ['npm publish'],
          metadata: { diff: 'x'.repeat(1_000_000) },
          always: ['npm *'],
        },
      },
    });
    await hooks.event({ event: null });
    await hooks.event({ event: { type: 'permission.replied', properties: { sessionID: 'ses_a', requestID: 'per_1', reply: 'once' } } });
    const lines = readFileSync(spool, 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { provider: string; channel: string; payload: Record<string, unknown> });
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      provider: 'opencode',
      channel: 'hook',
      payload: { type: 'permission.asked', directory: '/home/me/app', properties: { sessionID: 'ses_a', permission: 'bash', patterns: ['npm publish'] } },
    });
    // A permission's metadata (a whole diff) is never copied.
    expect(readFileSync(spool, 'utf8').length).toBeLessThan(2000);
    expect(statSync(spool).mode & 0o777).toBe(0o600);
    // A torn last line is ended before the next event's.
    writeFileSync(spool, '{"payload":{"type":"sess', { flag: 'a' });
    await hooks.event({ event: { type: 'session.status', properties: { sessionID: 'ses_a', status: { type: 'busy' } } } });
    expect(readFileSync(spool, 'utf8').split('\n').at(-2)).toContain('"session.status"');
    // A spool it cannot write is passed over without a throw.
    rmSync(join(c.home, 'spool'), { recursive: true });
    writeFileSync(join(c.home, 'spool'), 'a file where the folder should be');
    await expect(hooks.event({ event: { type: 'session.idle', properties: { sessionID: 'ses_a' } } })).resolves.toBeUndefined();
  });

  it('events: approvals and questions ask; answers, status and aborts settle; retries are notices; other errors fail', () => {
    const read = (type: string, properties: Record<string, unknown>) => readOpencodeEvent({ type, properties, directory: '/home/me/app' });
    expect(read('permission.asked', { sessionID: 'ses_a', permission: 'bash', patterns: ['npm publish'] })).toEqual({
      sessionId: 'ses_a',
      cwd: '/home/me/app',
      agentId: null,
      fact: { kind: 'event', event: 'permission-request', detail: 'bash: npm publish' },
    });
    // opencode 1.0's name and shape.
    expect(read('permission.updated', { sessionID: 'ses_a', type: 'edit', title: 'Edit src/app.ts' }).fact).toEqual({
      kind: 'event',
      event: 'permission-request',
      detail: 'edit: Edit src/app.ts',
    });
    expect(read('question.asked', { sessionID: 'ses_a', questions: [{ question: 'Which database?', header: 'DB' }] }).fact).toEqual({
      kind: 'event',
      event: 'input-request',
      detail: 'asks: Which database?',
    });
    for (const type of ['permission.replied', 'question.replied', 'question.rejected', 'session.idle'])
      expect(read(type, { sessionID: 'ses_a' }).fact).toMatchObject({ event: 'settled' });
    expect(read('session.status', { sessionID: 'ses_a', status: { type: 'busy' } }).fact).toMatchObject({ event: 'settled' });
    expect(read('session.status', { sessionID: 'ses_a', status: { type: 'retry', attempt: 2, message: 'rate limited' } }).fact).toEqual({
      kind: 'notice',
      message: 'retrying (attempt 2): rate limited',
    });
    expect(read('session.error', { sessionID: 'ses_a', error: { name: 'MessageAbortedError', data: { message: 'Aborted' } } }).fact).toMatchObject({
      event: 'settled',
    });
    expect(read('session.error', { sessionID: 'ses_a', error: { name: 'ProviderAuthError', data: { message: 'no API key' } } }).fact).toEqual({
      kind: 'event',
      event: 'stop-failure',
      detail: 'no API key',
    });
    expect(read('session.error', { error: { name: 'UnknownError' } }).sessionId).toBeNull();
  });
});

describe('opencode plugin events as direct evidence (lookout status --json)', () => {
  // The database's times are the fixture clock's; the spool lines are written as at those instants.
  const at = (seconds: number) => T0 + seconds * 1000;
  const NOW = new Date(at(120)).toISOString();

  function setup() {
    const c = context();
    const data = join(c.dir, 'opencode-data');
    database(data, (b) => {
      b.session('ses_lead', 'migrate the cache');
      b.user('ses_lead', 1);
      b.part('ses_lead', b.assistant('ses_lead', 2, {}), 2, {
        type: 'tool',
        callID: 'call_1',
        tool: 'bash',
        state: { status: 'running', input: { command: 'npm publish' }, time: { start: at(2) } },
      });
      b.session('ses_child', 'survey the cache', 'ses_lead', false, 3);
      b.user('ses_child', 3);
      b.assistant('ses_child', 4, {});
    }).close();
    const env = {
      HOME: c.dir,
      OPENCODE_DATA_DIR: data,
      LOOKOUT_HOME: c.home,
      CLAUDE_CONFIG_DIR: join(c.dir, 'none'),
      CODEX_HOME: join(c.dir, 'none'),
      COPILOT_HOME: join(c.dir, 'none'),
    };
    const spool = (seconds: number, type: string, properties: Record<string, unknown>) => {
      mkdirSync(join(c.home, 'spool'), { recursive: true, mode: 0o700 });
      writeFileSync(
        join(c.home, 'spool', 'opencode.jsonl'),
        `${JSON.stringify({ payload: { type, properties, directory: '/home/me/app' }, provider: 'opencode', at: at(seconds), precision: 'ms', channel: 'hook' })}\n`,
        { flag: 'a' },
      );
    };
    const rows = (): Row[] => {
      const result = runCli(['status', '--json', '--now', NOW], env);
      expect(result.code, result.stderr).toBe(0);
      return (JSON.parse(result.stdout) as Snapshot).sessions;
    };
    return { spool, rows };
  }

  it('R3 a running tool past the grace is "may be waiting"; with the plugin\'s permission.asked it is awaiting-approval, direct; the reply settles it', () => {
    const { spool, rows } = setup();
    const lead = () => rows().find((row) => row.key === 'opencode:ses_lead');
    expect(lead()?.observed).toMatchObject({ reason: 'tool-pending', confidence: 'inferred' });
    spool(10, 'permission.asked', { id: 'per_1', sessionID: 'ses_lead', permission: 'bash', patterns: ['npm publish'] });
    expect(lead()?.observed).toMatchObject({
      state: 'awaiting-approval',
      reason: 'approval-requested',
      confidence: 'direct',
      source: 'opencode.hook',
      detail: 'bash: npm publish',
    });
    expect(lead()?.claim?.kind).toBe('needs-you');
    spool(15, 'permission.replied', { sessionID: 'ses_lead', requestID: 'per_1', reply: 'once' });
    expect(lead()?.observed).toMatchObject({ reason: 'tool-pending', confidence: 'inferred' });
  });

  it("R10 a question asked in a child session is its parent row's child waiting, never a row of its own", () => {
    const { spool, rows } = setup();
    expect(rows()[0]?.observed.reason).not.toBe('child-waiting');
    spool(20, 'question.asked', { id: 'que_1', sessionID: 'ses_child', questions: [{ question: 'Which cache?' }] });
    const all = rows();
    expect(all.map((row) => row.key)).toEqual(['opencode:ses_lead']);
    expect(all[0]).toMatchObject({
      observed: { state: 'awaiting-input', reason: 'child-waiting' },
      children: { liveness: 'waiting' },
      claim: { kind: 'needs-you' },
    });
  });
});

describe('lookout hooks install (every agent)', () => {
  it('installs for the agents this machine has and skips the others, making no folder for them; --provider installs anyway', () => {
    const c = context();
    const env = {
      HOME: c.dir,
      XDG_CONFIG_HOME: join(c.dir, 'xdg'),
      LOOKOUT_HOME: c.home,
      CLAUDE_CONFIG_DIR: join(c.dir, 'claude'),
      CODEX_HOME: join(c.dir, 'codex'),
      COPILOT_HOME: join(c.dir, 'no-copilot'),
      OPENCODE_DATA_DIR: join(c.dir, 'no-opencode'),
    };
    const result = runCli(['hooks', 'install'], env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`copilot: not found (no ${join(c.dir, 'no-copilot')}); skipped (--provider copilot installs it anyway)`);
    expect(result.stdout).toContain('opencode: not found');
    expect(existsSync(join(c.dir, 'no-copilot'))).toBe(false);
    expect(existsSync(join(c.dir, 'xdg'))).toBe(false);
    expect(existsSync(c.claude)).toBe(true);
    const named = runCli(['hooks', 'install', '--provider', 'opencode'], env);
    expect(named.code, named.stderr).toBe(0);
    expect(existsSync(join(c.dir, 'xdg', 'opencode', 'plugins', 'lookout.js'))).toBe(true);
  });
});
