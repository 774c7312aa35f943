// The live runtime as a process: appends, new sessions and registry files show up as snapshots.
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Snapshot } from '../../../src/engine';
import { FIXTURES, fixtures } from '../../providers/fixture-roots';
import { WatchProcess } from '../watch-process';

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
  const watch = new WatchProcess(['--now', now], {
    CLAUDE_CONFIG_DIR: join(dir, 'claude'),
    CODEX_HOME: join(dir, 'codex'),
    LOOKOUT_HOME: join(dir, 'home'),
    HOME: dir,
  });
  running = watch;
  await watch.until((snapshot) => snapshot.sessions.length === claude.length + codex.length);
  return { dir, watch };
}

/**
 * Waits for a snapshot passing the test after a change to `paths`. The first snapshot comes before
 * the file watcher is ready (the runtime reads, then watches), and a change made in between is
 * seen only when its file changes again: so while waiting, the files are touched now and then.
 */
/**
 * The first snapshot that passes the test. The changed files are named for the reader, but never
 * touched again: the runtime must see each change by itself (it reads once more after its watcher
 * is ready, and re-reads a changed file after chokidar's throttle), or the test fails.
 */
function seen(watch: WatchProcess, test: (snapshot: Snapshot) => boolean, _changed: string[], timeoutMs?: number): Promise<Snapshot> {
  return watch.until(test, timeoutMs);
}

const T = (seconds: number) => new Date(Date.parse('2026-11-29T12:00:00.000Z') + seconds * 1000).toISOString();
const project = (dir: string) => join(dir, 'claude', 'projects', '-home-me-app');
/** Appends a question to a Claude session's transcript; returns the transcript's path. */
function ask(dir: string, key: string): string {
  const id = key.slice('claude:'.length);
  const transcript = join(project(dir), `${id}.jsonl`);
  appendFileSync(
    transcript,
    `${JSON.stringify({ type: 'assistant', sessionId: id, cwd: '/home/me/app', timestamp: T(6), message: { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_w1', name: 'AskUserQuestion', input: { questions: [{ question: 'Ship it?' }] } }] } })}\n`,
  );
  return transcript;
}

describe('lookout watch (process)', () => {
  it('an append to a transcript shows in the next snapshot', async () => {
    const working = fixture('claude', 'working');
    const { dir, watch } = await start(['working'], [], T(5));
    expect(state(watch.snapshots[0] as Snapshot, working.meta.sessionKey)?.state).toBe('running');
    const transcript = ask(dir, working.meta.sessionKey);
    const asked = await seen(watch, (snapshot) => state(snapshot, working.meta.sessionKey)?.state === 'awaiting-input', [transcript]);
    expect(asked.attention).toMatchObject({ count: 1, level: 'needs-you', needYou: 1 });
    expect(state(asked, working.meta.sessionKey)?.detail).toBe('asks: Ship it?');
  });

  it('a new session file appears as a new row; a Codex append too', async () => {
    const { dir, watch } = await start([], ['working'], T(5));
    const id = 'c1a0bbbb-0000-4000-8000-000000000077';
    mkdirSync(join(project(dir)), { recursive: true });
    writeFileSync(
      join(project(dir), `${id}.jsonl`),
      `${JSON.stringify({ type: 'user', sessionId: id, cwd: '/w', timestamp: T(6), message: { role: 'user', content: 'new work' } })}\n`,
    );
    const added = await seen(watch, (snapshot) => snapshot.sessions.some((row) => row.key === `claude:${id}`), [join(project(dir), `${id}.jsonl`)]);
    expect(added.sessions.find((row) => row.key === `claude:${id}`)?.title).toBe('new work');
    const codex = fixture('codex', 'working');
    const rollout = join(dir, 'codex', 'sessions', '2026', '11', '29');
    const file = join(rollout, readdirSync(rollout)[0] ?? '');
    appendFileSync(file, `${JSON.stringify({ timestamp: T(7), type: 'event_msg', payload: { type: 'task_complete', turn_id: 't1', duration_ms: 7000 } })}\n`);
    await watch.until((snapshot) => state(snapshot, codex.meta.sessionKey)?.state === 'idle');
  });

  it('§11 a registry file appearing, then vanishing while watched, ends the session (registry-removed)', async () => {
    const working = fixture('claude', 'working');
    const id = working.meta.sessionKey.slice('claude:'.length);
    const { dir, watch } = await start(['working'], [], T(5));
    const registry = join(dir, 'claude', 'sessions', '1.json');
    writeFileSync(
      registry,
      JSON.stringify({ pid: 1, sessionId: id, cwd: '/home/me/app', status: 'waiting', waitingFor: 'permission prompt', updatedAt: Date.parse(T(5)) }),
    );
    const waiting = await seen(watch, (snapshot) => state(snapshot, working.meta.sessionKey)?.state === 'awaiting-approval', [registry]);
    expect(state(waiting, working.meta.sessionKey)).toMatchObject({ confidence: 'direct', source: 'claude.session-registry' });
    unlinkSync(registry);
    const ended = await watch.until((snapshot) => state(snapshot, working.meta.sessionKey)?.state === 'ended');
    expect(state(ended, working.meta.sessionKey)?.reason).toBe('registry-removed');
  });

  it('the beat turns a fresh tool call ambiguous without any file change (R3 grace)', async () => {
    const fresh = fixture('claude', 'fresh-tool');
    const { watch } = await start(['fresh-tool'], [], T(3));
    expect(state(watch.snapshots[0] as Snapshot, fresh.meta.sessionKey)?.reason).toBe('tool-running');
    await watch.until((snapshot) => state(snapshot, fresh.meta.sessionKey)?.reason === 'tool-pending', 45_000);
  }, 60_000);

  it('a fact recorded by another process shows up (the store is watched)', async () => {
    const short = fixture('claude', 'short-finish');
    const { dir, watch } = await start(['short-finish'], [], T(10));
    const { runCli } = await import('../cli-process');
    const result = runCli(['review', short.meta.sessionKey, 'flagged'], {
      CLAUDE_CONFIG_DIR: join(dir, 'claude'),
      CODEX_HOME: join(dir, 'codex'),
      LOOKOUT_HOME: join(dir, 'home'),
      HOME: dir,
    });
    expect(result.code, result.stderr).toBe(0);
    await seen(watch, (snapshot) => snapshot.sessions.find((row) => row.key === short.meta.sessionKey)?.review.state === 'flagged', [
      join(dir, 'home', 'store.json'),
    ]);
  });

  it('issue 6: a permission prompt reported by a hook shows as awaiting-approval (direct) while watching', async () => {
    const working = fixture('claude', 'working');
    const { dir, watch } = await start(['working'], [], T(5));
    const { spawnSync } = await import('node:child_process');
    const { CLI } = await import('../cli-process');
    const payload = JSON.stringify({
      session_id: working.meta.sessionKey.slice(7),
      hook_event_name: 'PermissionRequest',
      tool_name: 'Bash',
      tool_input: { command: 'rm -rf dist' },
    });
    const result = spawnSync(process.execPath, [CLI, 'hook', 'claude'], {
      input: payload,
      env: { PATH: process.env.PATH ?? '', LOOKOUT_HOME: join(dir, 'home') },
    });
    expect(result.status).toBe(0);
    const spool = join(dir, 'home', 'spool');
    const approval = await seen(
      watch,
      (snapshot) => state(snapshot, working.meta.sessionKey)?.state === 'awaiting-approval',
      readdirSync(spool).map((name) => join(spool, name)),
    );
    expect(state(approval, working.meta.sessionKey)).toMatchObject({ confidence: 'direct', source: 'claude.hook', detail: 'Bash: rm -rf dist' });
  });

  it('Ctrl-C exits cleanly and promptly', async () => {
    const working = fixture('claude', 'working');
    const { dir, watch } = await start(['working'], [], T(5));
    // Ctrl-C is handled once the runtime has started (watching): a change seen in a snapshot shows it has.
    const transcript = ask(dir, working.meta.sessionKey);
    await seen(watch, (snapshot) => state(snapshot, working.meta.sessionKey)?.state === 'awaiting-input', [transcript]);
    const { code, ms } = await watch.stop();
    expect(code).toBe(0);
    // Promptly: no timer or watcher keeps it alive; the bound allows for a loaded machine.
    expect(ms).toBeLessThan(15_000);
    expect(watch.stderr).toBe('');
  });
});
