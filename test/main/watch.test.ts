// The live runtime as a process: appends, new sessions and registry files show up as snapshots.
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Snapshot } from '../../src/engine';
import { FIXTURES, fixtures } from '../providers/fixture-roots';
import { WatchProcess } from './watch-process';

const base = mkdtempSync(join(tmpdir(), 'lookout-watch-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
let running: WatchProcess | null = null;
afterEach(async () => {
  if (running !== null && running.child.exitCode === null) await running.stop();
  running = null;
});

const fixture = (provider: 'claude' | 'codex', name: string) => {
  const found = fixtures(provider).find((item) => item.name === name);
  if (found === undefined) throw new Error(name);
  return found;
};
const state = (snapshot: Snapshot, key: string) => snapshot.sessions.find((row) => row.key === key)?.observed;
let n = 0;

/** A fresh home with copies of the named fixtures, and `watch` started at `now` (time flows on). */
async function start(claude: string[], codex: string[], now: string): Promise<{ dir: string; watch: WatchProcess }> {
  n += 1;
  const dir = join(base, `run-${n}`);
  mkdirSync(join(dir, 'claude', 'projects'), { recursive: true });
  mkdirSync(join(dir, 'claude', 'sessions'), { recursive: true });
  mkdirSync(join(dir, 'codex', 'sessions'), { recursive: true });
  for (const name of claude) cpSync(join(FIXTURES, 'claude', name), join(dir, 'claude'), { recursive: true });
  for (const name of codex) cpSync(join(FIXTURES, 'codex', name), join(dir, 'codex'), { recursive: true });
  const watch = new WatchProcess(['--now', now], { CLAUDE_CONFIG_DIR: join(dir, 'claude'), CODEX_HOME: join(dir, 'codex'), LOOKOUT_HOME: join(dir, 'home'), HOME: dir });
  running = watch;
  await watch.until((snapshot) => snapshot.sessions.length === claude.length + codex.length);
  // Give chokidar its initial scan before files change.
  await new Promise((resolve) => setTimeout(resolve, 300));
  return { dir, watch };
}

const T = (seconds: number) => new Date(Date.parse('2026-11-29T12:00:00.000Z') + seconds * 1000).toISOString();
const project = (dir: string) => join(dir, 'claude', 'projects', '-home-me-app');

describe('lookout watch (process)', () => {
  it('an append to a transcript shows in the next snapshot', async () => {
    const working = fixture('claude', 'working');
    const { dir, watch } = await start(['working'], [], T(5));
    expect(state(watch.snapshots[0] as Snapshot, working.meta.sessionKey)?.state).toBe('running');
    const id = working.meta.sessionKey.slice('claude:'.length);
    appendFileSync(join(project(dir), `${id}.jsonl`), `${JSON.stringify({ type: 'assistant', sessionId: id, cwd: '/home/me/app', timestamp: T(6), message: { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_w1', name: 'AskUserQuestion', input: { questions: [{ question: 'Ship it?' }] } }] } })}\n`);
    const asked = await watch.until((snapshot) => state(snapshot, working.meta.sessionKey)?.state === 'awaiting-input');
    expect(asked.attention).toMatchObject({ count: 1, level: 'needs-you', needYou: 1 });
    expect(state(asked, working.meta.sessionKey)?.detail).toBe('asks: Ship it?');
  });

  it('a new session file appears as a new row; a Codex append too', async () => {
    const { dir, watch } = await start([], ['working'], T(5));
    const id = 'c1a0bbbb-0000-4000-8000-000000000077';
    mkdirSync(join(project(dir)), { recursive: true });
    writeFileSync(join(project(dir), `${id}.jsonl`), `${JSON.stringify({ type: 'user', sessionId: id, cwd: '/w', timestamp: T(6), message: { role: 'user', content: 'new work' } })}\n`);
    const seen = await watch.until((snapshot) => snapshot.sessions.some((row) => row.key === `claude:${id}`));
    expect(seen.sessions.find((row) => row.key === `claude:${id}`)?.title).toBe('new work');
    const codex = fixture('codex', 'working');
    const rollout = join(dir, 'codex', 'sessions', '2026', '11', '29');
    const file = join(rollout, (await import('node:fs')).readdirSync(rollout)[0] ?? '');
    appendFileSync(file, `${JSON.stringify({ timestamp: T(7), type: 'event_msg', payload: { type: 'task_complete', turn_id: 't1', duration_ms: 7000 } })}\n`);
    await watch.until((snapshot) => state(snapshot, codex.meta.sessionKey)?.state === 'idle');
  });

  it('§11 a registry file appearing, then vanishing while watched, ends the session (registry-removed)', async () => {
    const working = fixture('claude', 'working');
    const id = working.meta.sessionKey.slice('claude:'.length);
    const { dir, watch } = await start(['working'], [], T(5));
    const registry = join(dir, 'claude', 'sessions', '1.json');
    writeFileSync(registry, JSON.stringify({ pid: 1, sessionId: id, cwd: '/home/me/app', status: 'waiting', waitingFor: 'permission prompt', updatedAt: Date.parse(T(5)) }));
    const waiting = await watch.until((snapshot) => state(snapshot, working.meta.sessionKey)?.state === 'awaiting-approval');
    expect(state(waiting, working.meta.sessionKey)).toMatchObject({ confidence: 'direct', source: 'claude.session-registry' });
    unlinkSync(registry);
    const ended = await watch.until((snapshot) => state(snapshot, working.meta.sessionKey)?.state === 'ended');
    expect(state(ended, working.meta.sessionKey)?.reason).toBe('registry-removed');
  });

  it('the beat turns a fresh tool call ambiguous without any file change (R3 grace)', async () => {
    const fresh = fixture('claude', 'fresh-tool');
    const { watch } = await start(['fresh-tool'], [], T(3));
    expect(state(watch.snapshots[0] as Snapshot, fresh.meta.sessionKey)?.reason).toBe('tool-running');
    await watch.until((snapshot) => state(snapshot, fresh.meta.sessionKey)?.reason === 'tool-pending', 12_000);
  });

  it('a fact recorded by another process shows up (the store is watched)', async () => {
    const short = fixture('claude', 'short-finish');
    const { dir } = await start(['short-finish'], [], T(10));
    const { runCli } = await import('./cli-process');
    const result = runCli(['review', short.meta.sessionKey, 'flagged'], { CLAUDE_CONFIG_DIR: join(dir, 'claude'), CODEX_HOME: join(dir, 'codex'), LOOKOUT_HOME: join(dir, 'home'), HOME: dir });
    expect(result.code, result.stderr).toBe(0);
    await running?.until((snapshot) => snapshot.sessions.find((row) => row.key === short.meta.sessionKey)?.review.state === 'flagged');
  });

  it('issue 6: a permission prompt reported by a hook shows as awaiting-approval (direct) while watching', async () => {
    const working = fixture('claude', 'working');
    const { dir, watch } = await start(['working'], [], T(5));
    const { spawnSync } = await import('node:child_process');
    const { CLI } = await import('./cli-process');
    const payload = JSON.stringify({ session_id: working.meta.sessionKey.slice(7), hook_event_name: 'PermissionRequest', tool_name: 'Bash', tool_input: { command: 'rm -rf dist' } });
    const result = spawnSync(process.execPath, [CLI, 'hook', 'claude'], { input: payload, env: { PATH: process.env.PATH ?? '', LOOKOUT_HOME: join(dir, 'home') } });
    expect(result.status).toBe(0);
    const seen = await watch.until((snapshot) => state(snapshot, working.meta.sessionKey)?.state === 'awaiting-approval');
    expect(state(seen, working.meta.sessionKey)).toMatchObject({ confidence: 'direct', source: 'claude.hook', detail: 'Bash: rm -rf dist' });
  });

  it('Ctrl-C exits cleanly and promptly', async () => {
    const { watch } = await start(['working'], [], T(5));
    const { code, ms } = await watch.stop();
    expect(code).toBe(0);
    expect(ms).toBeLessThan(3000);
    expect(watch.stderr).toBe('');
  });
});
