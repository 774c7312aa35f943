// Issue 14, the index's identity cases: a file whose identity is unchanged is not read for its head;
// one that only grew keeps its head; one rewritten, truncated, replaced or cut short is read
// afresh; a moved file keeps what was learned of it; a broken index costs speed, never truth.
// Transcript shapes: Claude Code 2.1.143 (agent-formats §1).
import { spawn } from 'node:child_process';
import {
  appendFileSync,
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  truncateSync,
  utimesSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, runCli } from '../cli-process';
import { WatchProcess } from '../watch-process';
import type { Snapshot } from '../../../src/engine';
import { indexCase } from '../index-case';

const { setup, title, learn, prompt, answer, rename, turns, longSession, ID } = indexCase('lookout-identity-');
/** A whole second: a test can set a file's time back exactly. */
const T = Math.floor(Date.now() / 1000) - 7200;

/** Rewrites `from` as `to` (same length) where it first (or last) occurs, in place: same inode, same size. */
function editInPlace(file: string, from: string, to: string, last = false): void {
  expect(to.length).toBe(from.length);
  const text = readFileSync(file);
  const at = last ? text.lastIndexOf(from) : text.indexOf(from);
  expect(at).toBeGreaterThanOrEqual(0);
  const fd = openSync(file, 'r+');
  writeSync(fd, to, at);
  closeSync(fd);
}

const indexed = (env: Record<string, string>): Record<string, unknown> =>
  (JSON.parse(readFileSync(join(env.LOOKOUT_HOME ?? '', 'index.json'), 'utf8')) as { providers: { claude: Record<string, unknown> } }).providers.claude;

describe('the session index: a file and what was learned of it (issue 14)', () => {
  it('unchanged (same size and time): its head is not read again; rewritten in place (time moved): read afresh', () => {
    const { env, file } = setup();
    const t0 = (T - 3600) * 1000;
    longSession(file, 1, t0);
    utimesSync(file, T, T);
    expect(title(env).title).toBe('first prompt');
    expect(Object.keys(indexed(env))).toEqual([file]);
    // The head changed but the file's size and time did not: the index's word stands, no head read.
    editInPlace(file, 'first prompt', 'FIRST PROMPT');
    utimesSync(file, T, T);
    expect(title(env).title).toBe('first prompt');
    // Its time moved: the first bytes are compared, differ, and the head is read again.
    utimesSync(file, T + 1, T + 1);
    expect(title(env).title).toBe('FIRST PROMPT');
    expect(title(env).title).toBe('FIRST PROMPT');
  });

  it("unchanged: not even opened, its end too is the index's; changed, read afresh; watched from there", async () => {
    const { env, file } = setup();
    longSession(file, 1, (T - 3600) * 1000);
    utimesSync(file, T, T);
    const state = (): string | undefined => (JSON.parse(runCli(['status', '--json', '--all'], env).stdout) as Snapshot).sessions[0]?.observed.reason;
    const before = state();
    expect(before).toBe('turn-finished');
    // Its last record now says the turn goes on, but size and time are as the index knew them.
    editInPlace(file, '"end_turn"', '"tool_use"', true);
    utimesSync(file, T, T);
    expect(state()).toBe(before);
    utimesSync(file, T + 1, T + 1);
    expect(state()).not.toBe(before);
    // A runtime that took the file from the index reads it afresh once it changes.
    editInPlace(file, '"tool_use"', '"end_turn"', true);
    utimesSync(file, T + 2, T + 2);
    expect(state()).toBe(before);
    const watch = new WatchProcess(['--all'], env);
    try {
      await watch.until((snapshot) => snapshot.sessions[0]?.observed.reason === 'turn-finished', 30_000);
      appendFileSync(file, prompt(Date.now(), 'one more thing'));
      await watch.until((snapshot) => snapshot.sessions[0]?.observed.state === 'running', 30_000);
    } finally {
      await watch.stop();
    }
  }, 60_000);

  it('grown: the head kept in the index still holds (only the first bytes are compared)', () => {
    const { env, file } = setup();
    const t0 = (T - 3600) * 1000;
    // A head whose title record lies past the 4 KB that are hashed.
    const filler = `${JSON.stringify({ type: 'file-history-snapshot', messageId: 'm0', snapshot: { trackedFileBackups: {}, note: 'y'.repeat(6000) } })}\n`;
    const aiTitle = `${JSON.stringify({ type: 'ai-title', aiTitle: 'Old title', sessionId: ID })}\n`;
    writeFileSync(file, filler + aiTitle + prompt(t0, 'first prompt') + answer(t0 + 1000, 'ok'));
    const at = turns(file, 1, t0 + 2000);
    expect(title(env).title).toBe('Old title');
    editInPlace(file, 'Old title', 'New title');
    appendFileSync(file, prompt(at + 1000, 'one more') + answer(at + 2000, 'done'));
    expect(title(env).title).toBe('Old title');
    // Without the index the head is read, as it is now.
    expect(title({ ...env, LOOKOUT_HOME: join(dirname(env.LOOKOUT_HOME), 'fresh-home') }).title).toBe('New title');
  });

  it('truncated and rewritten (same inode, longer than before): read afresh', () => {
    const { env, file } = setup();
    const t0 = (T - 3600) * 1000;
    longSession(file, 1, t0);
    expect(title(env).title).toBe('first prompt');
    const ino = statSync(file).ino;
    truncateSync(file, 0);
    appendFileSync(file, prompt(t0, 'another session entirely') + answer(t0 + 1000, 'ok'));
    turns(file, 2, t0 + 2000);
    expect(statSync(file).ino).toBe(ino);
    expect(title(env).title).toBe('another session entirely');
  });

  it('moved to another folder: what the runtime learned of its middle follows it', async () => {
    const { env, file, dir } = setup();
    const t0 = (T - 3600) * 1000;
    const at = longSession(file, 2, t0);
    appendFileSync(file, rename('learned title'));
    turns(file, 2, at);
    await learn(env, 'learned title');
    const moved = join(dir, 'claude', 'projects', '-home-me-elsewhere', `${ID}.jsonl`);
    mkdirSync(dirname(moved), { recursive: true });
    renameSync(file, moved);
    expect(title(env).title).toBe('learned title');
    // The entry now lives under the new name; the old name's is dropped with that write.
    expect(Object.keys(indexed(env))).toEqual([moved]);
  }, 120_000);

  it('an empty index is kept aside with one line and rebuilt; a folder in its place is worked around, said once', () => {
    const { env, file } = setup();
    const t0 = (T - 3600) * 1000;
    longSession(file, 1, t0);
    mkdirSync(env.LOOKOUT_HOME, { recursive: true, mode: 0o700 });
    writeFileSync(join(env.LOOKOUT_HOME, 'index.json'), '');
    const empty = title(env);
    expect(empty.title).toBe('first prompt');
    expect(empty.stderr.trim().split('\n')).toHaveLength(1);
    expect(empty.stderr).toMatch(/index\.json could not be used \(it is not valid JSON\); kept aside as .* and rebuilt/);
    expect(Object.keys(indexed(env))).toEqual([file]);
    // A folder where the index should be: every command works without it and says so once.
    const home = join(env.LOOKOUT_HOME, '..', 'folder-home');
    mkdirSync(join(home, 'index.json'), { recursive: true, mode: 0o700 });
    const blocked = title({ ...env, LOOKOUT_HOME: home });
    expect(blocked.title).toBe('first prompt');
    expect(blocked.stderr.trim().split('\n')).toHaveLength(1);
    expect(blocked.stderr).toMatch(/index\.json cannot be read \(EISDIR\); Lookout works without its index/);
  });

  it("commands run at once over one home, and the app's runtime beside them, never leave a broken index", async () => {
    const { env, file, dir } = setup();
    const t0 = (T - 3600) * 1000;
    longSession(file, 1, t0);
    // More sessions, so each command has a real index to write.
    for (let index = 0; index < 40; index += 1) {
      const other = join(dir, 'claude', 'projects', `-home-me-p${index}`, `${ID.slice(0, -2)}${String(index).padStart(2, '0')}.jsonl`);
      mkdirSync(dirname(other), { recursive: true });
      writeFileSync(other, prompt(t0, `prompt ${index}`) + answer(t0 + 1000, 'x'.repeat(20_000)) + prompt(t0 + 2000, 'again') + answer(t0 + 3000, 'ok'));
    }
    const run = () =>
      new Promise<number | null>((done) => {
        const child = spawn(process.execPath, [CLI, 'status', '--json', '--all'], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: 'ignore' });
        child.on('exit', (code) => done(code));
      });
    for (let round = 0; round < 3; round += 1) {
      // Each round starts with no index: every command has a whole index to write at once.
      rmSync(join(env.LOOKOUT_HOME, 'index.json'), { force: true });
      expect(await Promise.all([run(), run(), run(), run()])).toEqual([0, 0, 0, 0]);
      expect(Object.keys(indexed(env))).toHaveLength(41);
      expect(readdirSync(env.LOOKOUT_HOME).filter((name) => name.includes('corrupt'))).toEqual([]);
    }
    // The app's runtime (here `watch`) writes as it scans the middles, while commands write too.
    rmSync(join(env.LOOKOUT_HOME, 'index.json'), { force: true });
    const watch = new WatchProcess(['--all'], env);
    try {
      await watch.until((snapshot) => snapshot.sessions.length > 0, 30_000);
      expect(await Promise.all([run(), run(), run(), run()])).toEqual([0, 0, 0, 0]);
    } finally {
      await watch.stop();
    }
    expect(Object.keys(indexed(env))).toHaveLength(41);
    expect(readdirSync(env.LOOKOUT_HOME).filter((name) => name.includes('corrupt'))).toEqual([]);
  }, 60_000);
});
