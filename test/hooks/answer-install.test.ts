// Issue 23: the answering hooks in the agents' files (Claude always with its hooks, Codex only when
// asked) and the shim's answering arm: it starts nothing without a running Lookout.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { answerEntries, hookCommand, install, shimEntries, status, uninstall } from '../../src/main/hooks/installer';
import { shimText } from '../../src/main/hooks/shim';
import { runFolder } from '../../src/main/answer/paths';
import type { TestContext } from './install-context';
import { installContext, providers } from './install-context';

const base = mkdtempSync(join(tmpdir(), 'lookout-answer-hooks-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const context = (): TestContext => installContext(base);
const read = (path: string) => readFileSync(path, 'utf8');
const USER = '{\n  "hooks": {\n    "Stop": [ { "hooks": [ { "type": "command", "command": "say done" } ] } ]\n  }\n}\n';

type Group = { matcher?: string; hooks: { command: string; timeout?: number; async?: boolean; statusMessage?: string }[] };

describe("answering hooks in the agents' files (issue 23)", () => {
  it('Claude Code: a second PermissionRequest handler that waits (timeout 600 s, not async); uninstall gives the bytes back', () => {
    const c = context();
    writeFileSync(c.claude, USER);
    install(c, providers('claude'));
    const groups = (JSON.parse(read(c.claude)) as { hooks: Record<string, Group[]> }).hooks.PermissionRequest ?? [];
    const answering = groups.find((group) => group.hooks[0]?.command === hookCommand(c, 'claude-answer'));
    expect(answering).toEqual({ matcher: '*', hooks: [{ type: 'command', command: hookCommand(c, 'claude-answer'), timeout: 600 }] });
    expect(groups.some((group) => group.hooks[0]?.command === hookCommand(c, 'claude') && group.hooks[0]?.async === true)).toBe(true);
    expect(status(c, providers('claude')).lines.join('\n')).toMatch(/answering from Lookout: on — permission prompts and questions/);
    uninstall(c, providers('claude'));
    expect(read(c.claude)).toBe(USER);
  });

  it('Codex: only with --answer codex (30 s, a status line saying it waits); uninstall takes it out and gives the bytes back', () => {
    const c = context();
    writeFileSync(c.codex, USER);
    install(c, providers('codex'));
    expect(read(c.codex)).not.toContain('codex-answer');
    expect(status(c, providers('codex')).lines.join('\n')).toMatch(/answering from Lookout: off \(opt-in: lookout hooks install --answer codex\)/);
    install({ ...c, answer: ['codex'] }, providers('codex'));
    const groups = (JSON.parse(read(c.codex)) as { hooks: Record<string, Group[]> }).hooks.PermissionRequest ?? [];
    const handler = groups.find((group) => group.hooks[0]?.command === hookCommand(c, 'codex-answer'))?.hooks[0];
    expect(handler).toMatchObject({ timeout: 30 });
    expect(handler?.statusMessage).toMatch(/Waiting up to 20 s for an answer from Lookout/);
    expect(status(c, providers('codex')).lines.join('\n')).toMatch(/answering from Lookout: on/);
    const lines = uninstall(c, providers('codex')).lines;
    expect(read(c.codex)).toBe(USER);
    expect(lines.filter((line) => line.includes('no Lookout hook found'))).toEqual([]);
  });
});

describe("the shim's answering arm", () => {
  /** A shim whose "node" is a script recording that it ran (and what it was given). */
  function rig() {
    const dir = mkdtempSync('/tmp/lk-shim-');
    const home = join(dir, 'home');
    const marker = join(dir, 'node-ran');
    const node = join(dir, 'fake-node');
    writeFileSync(node, `#!/bin/sh\n{ printf '%s\\n' "$LOOKOUT_HOME" "$*"; cat; } > ${JSON.stringify(marker)}\nprintf '{"decision":"from fake node"}\\n'\n`);
    chmodSync(node, 0o700);
    const shim = join(dir, 'lookout-hook');
    writeFileSync(
      shim,
      shimText(join(home, 'spool'), shimEntries(), { entries: answerEntries(), home, runFolder: runFolder(home), node, cli: '/opt/lookout/cli.cjs' }),
    );
    chmodSync(shim, 0o700);
    const run = (entry: string) =>
      spawnSync(shim, [entry], { input: '{"hook_event_name":"PermissionRequest","session_id":"s1"}', encoding: 'utf8', env: { PATH: process.env.PATH } });
    return { dir, home, marker, run };
  }

  it('R74 no Lookout running: exits 0, prints nothing, starts no Node', () => {
    const { dir, marker, run } = rig();
    const result = run('claude-answer');
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('');
    expect(existsSync(marker)).toBe(false);
    rmSync(dir, { recursive: true, force: true });
  });

  it("a crashed Lookout's files (socket left, owner gone): still nothing started", async () => {
    const { dir, home, marker, run } = rig();
    mkdirSync(runFolder(home), { recursive: true, mode: 0o700 });
    const server = createServer().listen(join(runFolder(home), 'answer.sock'));
    await new Promise<void>((done) => server.once('listening', () => done()));
    writeFileSync(join(runFolder(home), 'answer.pid'), '2147483646\n');
    expect(run('claude-answer').stdout).toBe('');
    expect(existsSync(marker)).toBe(false);
    // Its owner alive: the payload goes to Node, with the installed LOOKOUT_HOME, and its output is the hook's.
    writeFileSync(join(runFolder(home), 'answer.pid'), `${process.pid}\n`);
    const result = run('claude-answer');
    expect(result.stdout).toBe('{"decision":"from fake node"}\n');
    expect(read(marker).split('\n').slice(0, 3)).toEqual([
      home,
      '/opt/lookout/cli.cjs hook claude-answer',
      '{"hook_event_name":"PermissionRequest","session_id":"s1"}',
    ]);
    await new Promise<void>((done) => server.close(() => done()));
    rmSync(dir, { recursive: true, force: true });
  });
});
