// A Claude session file written as a test needs it, and the commands that read it (issue 14's tests).
// Transcript shapes: Claude Code 2.1.143 (agent-formats §1).
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect } from 'vitest';
import type { Snapshot } from '../../src/engine';
import { runCli } from './cli-process';
import { WatchProcess } from './watch-process';

export function indexCase(prefix: string) {
  const base = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(base, { recursive: true, force: true }));
  const ID = 'c1a00000-0000-4000-8000-0000000000ee';
  let n = 0;

  function record(type: string, at: number, extra: Record<string, unknown>): string {
    return `${JSON.stringify({ parentUuid: null, isSidechain: false, type, uuid: `u-${at}-${Math.random()}`, timestamp: new Date(at).toISOString(), cwd: '/home/me/app', sessionId: ID, version: '2.1.143', gitBranch: 'main', ...extra })}\n`;
  }
  const prompt = (at: number, text: string) => record('user', at, { message: { role: 'user', content: text } });
  const answer = (at: number, text: string) =>
    record('assistant', at, { message: { role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text }], stop_reason: 'end_turn' } });
  const rename = (title: string) => `${JSON.stringify({ type: 'custom-title', customTitle: title, sessionId: ID })}\n`;

  /** `megabytes` of finished turns (each answer ~64 KB), so a title before them is in the middle. */
  function turns(file: string, megabytes: number, start: number): number {
    const pad = 'x'.repeat(64 * 1024);
    let at = start;
    const chunk: string[] = [];
    for (let index = 0; index < megabytes * 16; index += 1) {
      chunk.push(prompt((at += 1000), `step ${index}`), answer((at += 1000), pad));
      if (chunk.length >= 64) appendFileSync(file, chunk.splice(0).join(''));
    }
    appendFileSync(file, chunk.join(''));
    return at;
  }

  /** A session file opening with the prompt "first prompt", then `megabytes` of finished turns; returns the last record's time. */
  function longSession(file: string, megabytes: number, t0: number): number {
    writeFileSync(file, prompt(t0, 'first prompt') + answer(t0 + 1000, 'ok'));
    return turns(file, megabytes, t0 + 2000);
  }

  function setup() {
    n += 1;
    const dir = join(base, `case-${n}`);
    const project = join(dir, 'claude', 'projects', '-home-me-app');
    mkdirSync(project, { recursive: true });
    const env = {
      HOME: dir,
      LOOKOUT_HOME: join(dir, 'home'),
      CLAUDE_CONFIG_DIR: join(dir, 'claude'),
      CODEX_HOME: join(dir, 'none'),
      COPILOT_HOME: join(dir, 'none'),
      OPENCODE_DATA_DIR: join(dir, 'none'),
    };
    return { dir, env, file: join(project, `${ID}.jsonl`) };
  }

  const title = (env: Record<string, string>): { title: string | null; stderr: string } => {
    const result = runCli(['status', '--json', '--all'], env);
    expect(result.code, result.stderr).toBe(0);
    return { title: (JSON.parse(result.stdout) as Snapshot).sessions[0]?.title ?? null, stderr: result.stderr };
  };

  /** Runs watch until the row carries `wanted` as its title, then stops it (which writes the index). */
  async function learn(env: Record<string, string>, wanted: string): Promise<void> {
    const watch = new WatchProcess(['--all'], env);
    try {
      await watch.until((snapshot) => snapshot.sessions[0]?.title === wanted, 60_000);
    } finally {
      await watch.stop();
    }
  }
  return { base, ID, record, prompt, answer, rename, turns, longSession, setup, title, learn };
}
