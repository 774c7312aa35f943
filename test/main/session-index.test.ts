// Issue 14, the truth part: a title given with /rename in the middle of a long transcript — which a
// cold read of its head and end cannot see — is learned by the runtime's background scan, kept in
// LOOKOUT_HOME/index.json, and used by the next cold `status` while the file is the same one.
// Transcript shapes: Claude Code 2.1.143 (agent-formats §1).
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Snapshot } from '../../src/engine';
import { SessionIndexStore } from '../../src/main/store/session-index-store';
import { runCli } from './cli-process';
import { WatchProcess } from './watch-process';

const base = mkdtempSync(join(tmpdir(), 'lookout-index-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const ID = 'c1a00000-0000-4000-8000-0000000000ee';
let n = 0;

function record(type: string, at: number, extra: Record<string, unknown>): string {
  return `${JSON.stringify({ parentUuid: null, isSidechain: false, type, uuid: `u-${at}-${Math.random()}`, timestamp: new Date(at).toISOString(), cwd: '/home/me/app', sessionId: ID, version: '2.1.143', gitBranch: 'main', ...extra })}\n`;
}
const prompt = (at: number, text: string) => record('user', at, { message: { role: 'user', content: text } });
const answer = (at: number, text: string) => record('assistant', at, { message: { role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text }], stop_reason: 'end_turn' } });
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

function setup() {
  n += 1;
  const dir = join(base, `case-${n}`);
  const project = join(dir, 'claude', 'projects', '-home-me-app');
  mkdirSync(project, { recursive: true });
  const env = { HOME: dir, LOOKOUT_HOME: join(dir, 'home'), CLAUDE_CONFIG_DIR: join(dir, 'claude'), CODEX_HOME: join(dir, 'none'), COPILOT_HOME: join(dir, 'none'), OPENCODE_DATA_DIR: join(dir, 'none') };
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

describe('titles from the middle of a long transcript (issue 14)', () => {
  it('a /rename in the middle of a 100 MB file: learned in the background, right after a restart; a second rename too', async () => {
    const { env, file } = setup();
    const t0 = Date.now() - 3_600_000;
    writeFileSync(file, prompt(t0, 'first prompt') + answer(t0 + 1000, 'ok'));
    let at = turns(file, 50, t0 + 2000);
    appendFileSync(file, rename('payments refactor'));
    at = turns(file, 50, at);
    // A cold read sees the head and the end: not the rename between them.
    expect(title(env).title).toBe('first prompt');
    await learn(env, 'payments refactor');
    expect(existsSync(join(env.LOOKOUT_HOME, 'index.json'))).toBe(true);
    expect(title(env).title).toBe('payments refactor');
    // A second rename, buried again: until the runtime has read past it, status does not claim the old title.
    appendFileSync(file, rename('billing refactor'));
    turns(file, 4, at);
    expect(title(env).title).toBe('first prompt');
    await learn(env, 'billing refactor');
    expect(title(env).title).toBe('billing refactor');
  }, 180_000);

  it('identity: a file replaced under its name (same size), or cut short, is never read through what was learned of the old one', async () => {
    const { env, file } = setup();
    const t0 = Date.now() - 3_600_000;
    writeFileSync(file, prompt(t0, 'first prompt') + answer(t0 + 1000, 'ok'));
    const at = turns(file, 2, t0 + 2000);
    appendFileSync(file, rename('learned title'));
    turns(file, 2, at);
    await learn(env, 'learned title');
    expect(title(env).title).toBe('learned title');
    // Replaced by another file of the same size and name (a restore, a copy): another inode.
    const text = readFileSync(file, 'utf8');
    const other = text.replace('learned title', 'learned_title');
    writeFileSync(`${file}.new`, other);
    renameSync(`${file}.new`, file);
    expect(title(env).title).toBe('first prompt');
    await learn(env, 'learned_title');
    // Cut short: what was learned past the new end does not hold.
    truncateSync(file, Math.floor(other.length / 4));
    expect(title(env).title).toBe('first prompt');
  }, 180_000);

  it('an index that is corrupt is kept aside with one line and rebuilt; one from a newer Lookout is left alone and not used', () => {
    const { env, file } = setup();
    const t0 = Date.now() - 3_600_000;
    writeFileSync(file, prompt(t0, 'first prompt') + answer(t0 + 1000, 'ok'));
    mkdirSync(env.LOOKOUT_HOME, { recursive: true });
    writeFileSync(join(env.LOOKOUT_HOME, 'index.json'), '{"version": 1, "providers": ');
    const corrupt = title(env);
    expect(corrupt.title).toBe('first prompt');
    expect(corrupt.stderr).toMatch(/index\.json could not be used \(it is not valid JSON\); kept aside as .* and rebuilt/);
    expect(existsSync(join(env.LOOKOUT_HOME, 'index.json'))).toBe(false);
    writeFileSync(join(env.LOOKOUT_HOME, 'index.json'), JSON.stringify({ version: 99, providers: {} }));
    const newer = title(env);
    expect(newer.stderr).toContain('was written by a newer Lookout (version 99); it is left as it is and not used');
    expect(JSON.parse(readFileSync(join(env.LOOKOUT_HOME, 'index.json'), 'utf8')).version).toBe(99);
  });
});

describe('the index file itself', () => {
  const facts = (size: number, title: string) => ({ identity: { dev: 1, ino: 2, size, head: 'h' }, customTitle: title, summaryTitle: null });

  it('two Lookouts sharing one home (the app and a command) keep each other\'s entries and never leave a broken file', () => {
    const home = join(base, 'shared-home');
    const problems: string[] = [];
    const app = new SessionIndexStore(home, Date.now, (line) => problems.push(line));
    const cli = new SessionIndexStore(home, Date.now, (line) => problems.push(line));
    app.put('claude', '/a.jsonl', facts(10, 'from the app'));
    cli.put('claude', '/b.jsonl', facts(20, 'from the command'));
    app.flush();
    cli.flush();
    // Of two scans of one file, the one that read further stays.
    app.put('claude', '/b.jsonl', facts(5, 'an older scan'));
    app.flush();
    const file = JSON.parse(readFileSync(join(home, 'index.json'), 'utf8')) as { providers: { claude: Record<string, { customTitle: string }> } };
    expect(Object.fromEntries(Object.entries(file.providers.claude).map(([path, entry]) => [path, entry.customTitle]))).toEqual({ '/a.jsonl': 'from the app', '/b.jsonl': 'from the command' });
    expect(problems).toEqual([]);
    app.dispose();
    cli.dispose();
  });

  it('a home where the index cannot be written: Lookout goes on without it and says so once', () => {
    const home = join(base, 'no-index-home');
    // A folder where the file should be: every write fails.
    mkdirSync(join(home, 'index.json'), { recursive: true });
    const problems: string[] = [];
    const store = new SessionIndexStore(home, Date.now, (line) => problems.push(line));
    store.put('claude', '/a.jsonl', facts(10, 'kept in memory'));
    store.flush();
    store.put('claude', '/b.jsonl', facts(10, 'still in memory'));
    store.flush();
    expect(store.get('claude', '/b.jsonl')?.customTitle).toBe('still in memory');
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/index\.json cannot be (read|written) .*; Lookout works without its index/);
    // And the folder in its place is left as it was.
    expect(existsSync(join(home, 'index.json'))).toBe(true);
  });
});
