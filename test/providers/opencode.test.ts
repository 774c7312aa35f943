// opencode read from its SQLite database (opencode 1.1.65–1.4.0 shapes: new-agents.md §1 and the
// real samples): the newest message of each session says how it stands; child sessions are
// children; rows still in the -wal are read; a read-only folder is read through a private copy.
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Row } from '../../src/engine';
import { defaultSettings, emptyFacts, evaluate } from '../../src/engine';
import { OpencodeProvider } from '../../src/providers/opencode/provider';
import { T0, database } from './opencode-db';

const base = mkdtempSync(join(tmpdir(), 'lookout-opencode-'));
/** A process that locks a database exclusively, writes a finished step, says so, and lets go when its stdin ends. */
const LOCKER = `
const { DatabaseSync } = require('@photostructure/sqlite');
const [path, at] = process.argv.slice(1);
const db = new DatabaseSync(path);
db.exec('PRAGMA journal_mode=WAL; PRAGMA locking_mode=EXCLUSIVE');
db.prepare('INSERT INTO message VALUES (?,?,?,?,?)').run('msg_locked', 'ses_l', Number(at), Number(at), JSON.stringify({ role: 'assistant', time: { created: Number(at), completed: Number(at) + 500 }, finish: 'stop' }));
process.stdout.write('locked\\n');
process.stdin.on('data', () => {}).on('end', () => { db.close(); process.exit(0); });
`;
afterAll(() => rmSync(base, { recursive: true, force: true }));

async function rows(folder: string, seconds: number): Promise<Row[]> {
  const now = T0 + seconds * 1000;
  const evidence = await new OpencodeProvider(folder).sync();
  return evaluate({ sessions: evidence, facts: emptyFacts(), settings: defaultSettings(), now, onScreen: null }).snapshot.sessions;
}

const done = (seconds: number, finish: string) => ({ time: { created: T0 + seconds * 1000 - 500, completed: T0 + seconds * 1000 }, finish });
const tool = (status: string, name = 'bash', input: Record<string, unknown> = { command: 'npm test' }) => ({
  type: 'tool',
  callID: `call_${name}`,
  tool: name,
  state: { status, input, time: { start: T0 } },
});

describe('opencode, read from its database', () => {
  it('each ending of the newest message reads as the rules say (1.2.15 shapes)', async () => {
    const folder = join(base, 'endings');
    database(folder, (b) => {
      const cases: [string, (sid: string) => void][] = [
        ['stop', (sid) => b.assistant(sid, 5, done(5, 'stop'))],
        ['steps', (sid) => b.assistant(sid, 5, done(5, 'tool-calls'))],
        ['open', (sid) => b.assistant(sid, 5, {})],
        ['running-tool', (sid) => b.part(sid, b.assistant(sid, 5, {}), 5, tool('running'))],
        ['question', (sid) => b.part(sid, b.assistant(sid, 5, {}), 5, tool('running', 'question', { questions: [{ question: 'Which database?' }] }))],
        ['aborted', (sid) => b.assistant(sid, 5, { ...done(5, 'stop'), error: { name: 'MessageAbortedError', data: { message: 'Aborted' } } })],
        ['failed', (sid) => b.assistant(sid, 5, { ...done(5, 'stop'), error: { name: 'APIError', data: { message: 'rate limited' } } })],
        ['length', (sid) => b.assistant(sid, 5, done(5, 'length'))],
        ['other', (sid) => b.assistant(sid, 5, { ...done(5, 'other'), tokens: { input: 0, output: 0 } })],
        ['other-with-output', (sid) => b.assistant(sid, 5, { ...done(5, 'other'), tokens: { input: 900, output: 40 } })],
        ['unknown-finish', (sid) => b.assistant(sid, 5, done(5, 'unknown'))],
        ['prompt', () => undefined],
      ];
      for (const [name, write] of cases) {
        b.session(`ses_${name}`, `session ${name}`);
        b.user(`ses_${name}`, 1);
        write(`ses_${name}`);
      }
      b.session('ses_archived', 'archived', null, true);
    }).close();
    const byId = new Map((await rows(folder, 8)).map((row) => [row.sessionId, row]));
    const state = (id: string) => [byId.get(id)?.observed.state, byId.get(id)?.observed.reason];
    expect(state('ses_stop')).toEqual(['idle', 'turn-finished']);
    expect(state('ses_steps')).toEqual(['running', 'turn-open']);
    expect(state('ses_open')).toEqual(['running', 'turn-open']);
    expect(state('ses_running-tool')).toEqual(['running', 'tool-running']);
    expect(state('ses_question')).toEqual(['awaiting-input', 'question-pending']);
    expect(state('ses_aborted')).toEqual(['idle', 'interrupted']);
    expect(state('ses_failed')).toEqual(['error', 'api-error']);
    expect(byId.get('ses_failed')?.observed.detail).toBe('rate limited');
    expect(state('ses_length')).toEqual(['error', 'api-error']);
    expect(state('ses_other')).toEqual(['error', 'api-error']);
    // opencode's loop ends the turn on "other" (only "tool-calls" and "unknown" go on): with output it is done.
    expect(state('ses_other-with-output')).toEqual(['idle', 'turn-finished']);
    expect(state('ses_unknown-finish')).toEqual(['running', 'turn-open']);
    expect(state('ses_prompt')).toEqual(['running', 'turn-open']);
    expect(byId.has('ses_archived')).toBe(false);
    expect(byId.get('ses_stop')).toMatchObject({ key: 'opencode:ses_stop', title: 'session stop', cwd: '/home/me/app' });
  });

  it('R3 a tool running past the grace reads "may be waiting", never "waiting"', async () => {
    const folder = join(base, 'grace');
    database(folder, (b) => {
      b.session('ses_a', 'a');
      b.user('ses_a', 1);
      b.part('ses_a', b.assistant('ses_a', 5, {}), 5, tool('pending', 'bash', { command: 'npm publish' }));
    }).close();
    const [row] = await rows(folder, 120);
    expect(row?.observed).toMatchObject({ reason: 'tool-pending', confidence: 'inferred', detail: 'bash: npm publish' });
    expect(row?.claim?.ambiguous).toBe(true);
  });

  it('R10 a child session (parent_id) is a child of its parent row, never a row', async () => {
    const folder = join(base, 'children');
    database(folder, (b) => {
      b.session('ses_lead', 'lead');
      b.user('ses_lead', 1);
      b.assistant('ses_lead', 10, done(10, 'stop'));
      b.session('ses_child', 'explore the cache', 'ses_lead');
      b.user('ses_child', 2, 'explore');
      b.assistant('ses_child', 30, {});
    }).close();
    const all = await rows(folder, 35);
    expect(all.map((row) => row.sessionId)).toEqual(['ses_lead']);
    expect(all[0]).toMatchObject({ observed: { state: 'running-subagents', reason: 'child-working' }, children: { live: 1 } });
  });

  it('rows that sit only in the -wal (opencode running, nothing checkpointed) are read', async () => {
    const folder = join(base, 'wal');
    const writer = database(
      folder,
      (b) => {
        b.session('ses_w', 'in the wal');
        b.user('ses_w', 1);
        b.assistant('ses_w', 5, done(5, 'stop'));
      },
      true,
    );
    try {
      expect(existsSync(join(folder, 'opencode.db-wal'))).toBe(true);
      const provider = new OpencodeProvider(folder);
      const first = await provider.sync();
      expect(first.map((item) => item.sessionId)).toEqual(['ses_w']);
      // opencode writes the next step: the -wal grows and the provider sees it.
      writer
        .prepare('INSERT INTO message VALUES (?,?,?,?,?)')
        .run('msg_zzz', 'ses_w', T0 + 9000, T0 + 9000, JSON.stringify({ role: 'user', time: { created: T0 + 9000 } }));
      const second = await provider.sync();
      expect(second[0]?.signal).toMatchObject({ kind: 'prompt', at: T0 + 9000 });
    } finally {
      writer.close();
    }
  });

  it("Lookout never holds back opencode's checkpoints: between reads it holds no read transaction", async () => {
    const folder = join(base, 'checkpoint');
    const writer = database(
      folder,
      (b) => {
        b.session('ses_c', 'checkpointed');
        b.user('ses_c', 1);
      },
      true,
    );
    try {
      const provider = new OpencodeProvider(folder);
      expect(await provider.sync()).toHaveLength(1);
      const [checkpoint] = writer.prepare('PRAGMA wal_checkpoint(TRUNCATE)').all() as { busy: number }[];
      expect(checkpoint?.busy).toBe(0);
      expect(readFileSync(join(folder, 'opencode.db-wal')).length).toBe(0);
      provider.dispose();
    } finally {
      writer.close();
    }
  });

  it('a database another process holds locked is waited on briefly and reported once; it is read once released', async () => {
    // Built aside and copied: a closed connection of this process keeps its files until its statements are collected.
    const built = join(base, 'locked-built');
    database(built, (b) => {
      b.session('ses_l', 'locked');
      b.user('ses_l', 1);
    }).close();
    const folder = join(base, 'locked');
    mkdirSync(folder, { recursive: true });
    cpSync(join(built, 'opencode.db'), join(folder, 'opencode.db'));
    // Another process takes the database for itself (exclusive locking), writes a step, and holds it until told.
    const locker = spawn(process.execPath, ['-e', LOCKER, join(folder, 'opencode.db'), String(T0 + 9000)], {
      cwd: resolve(__dirname, '../..'),
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const exited = new Promise((done) => locker.once('exit', done));
    await new Promise<void>((done) => locker.stdout.once('data', () => done()));
    const provider = new OpencodeProvider(folder);
    try {
      expect(await provider.sync()).toEqual([]);
      expect(provider.problems.drain().map((problem) => problem.detail)).toEqual(['database is locked']);
      expect(await provider.sync()).toEqual([]);
      expect(provider.problems.drain()).toHaveLength(0);
    } finally {
      locker.stdin.end();
      await exited;
    }
    const after = await provider.sync();
    expect(after[0]?.signal).toMatchObject({ kind: 'turn-end' });
    provider.dispose();
  });

  it('a database that is not one is reported once, and nothing else stops', async () => {
    const folder = join(base, 'corrupt');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'opencode.db'), 'this is not a database, just text that says so');
    const provider = new OpencodeProvider(folder);
    expect(await provider.sync()).toEqual([]);
    expect(provider.problems.drain()).toHaveLength(1);
    expect(await provider.sync()).toEqual([]);
    expect(provider.problems.drain()).toHaveLength(0);
  });

  it('a -wal cut short mid-frame (a crash while writing) reads what was committed, and nothing breaks', async () => {
    const live = join(base, 'wal-live');
    const writer = database(
      live,
      (b) => {
        b.session('ses_t', 'torn');
        b.user('ses_t', 1);
        b.assistant('ses_t', 5, done(5, 'stop'));
      },
      true,
    );
    try {
      const torn = join(base, 'wal-torn');
      mkdirSync(torn, { recursive: true });
      cpSync(join(live, 'opencode.db'), join(torn, 'opencode.db'));
      const wal = readFileSync(join(live, 'opencode.db-wal'));
      // Cut 100 bytes into the last frame: SQLite's checksums reject the partial frame.
      writeFileSync(join(torn, 'opencode.db-wal'), wal.subarray(0, wal.length - 100));
      const provider = new OpencodeProvider(torn);
      const evidence = await provider.sync();
      provider.dispose();
      expect(evidence.length).toBeLessThanOrEqual(1);
    } finally {
      writer.close();
    }
  });

  it('a database replaced under its name is read anew, not through the old connection', async () => {
    const folder = join(base, 'replaced');
    database(folder, (b) => {
      b.session('ses_old', 'old');
      b.user('ses_old', 1);
    }).close();
    const provider = new OpencodeProvider(folder);
    expect((await provider.sync()).map((item) => item.sessionId)).toEqual(['ses_old']);
    const next = join(base, 'replacement');
    database(next, (b) => {
      b.session('ses_new', 'new');
      b.user('ses_new', 2);
    }).close();
    renameSync(join(next, 'opencode.db'), join(folder, 'opencode.db'));
    expect((await provider.sync()).map((item) => item.sessionId)).toEqual(['ses_new']);
    provider.dispose();
  });

  it.skipIf(process.getuid?.() !== 0)('a read-only folder without a -shm is read through a private copy', async (test) => {
    const source = join(base, 'ro-source');
    // A WAL-mode database (as opencode's is), checkpointed: the folder holds only the .db file.
    const db = database(
      source,
      (b) => {
        b.session('ses_ro', 'read only');
        b.user('ses_ro', 1);
        b.assistant('ses_ro', 5, done(5, 'stop'));
      },
      true,
    );
    db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    db.close();
    const mount = join(base, 'ro');
    mkdirSync(mount, { recursive: true });
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', mount], { stdio: 'ignore' });
    } catch {
      console.log('read-only opencode test skipped: this machine does not allow mounting a tmpfs');
      test.skip();
    }
    try {
      cpSync(join(source, 'opencode.db'), join(mount, 'opencode.db'));
      execFileSync('mount', ['-o', 'remount,ro', mount]);
      const provider = new OpencodeProvider(mount);
      const evidence = await provider.sync();
      provider.dispose();
      expect(evidence.map((item) => item.sessionId)).toEqual(['ses_ro']);
      expect(existsSync(join(mount, 'opencode.db-shm'))).toBe(false);
    } finally {
      execFileSync('umount', [mount]);
    }
  });
});

const SAMPLES = resolve(__dirname, '../../../shared/real-samples/opencode');
const present = existsSync(SAMPLES);
if (!present) console.log(`opencode real-sample tests skipped: ${SAMPLES} is not here`);

describe.skipIf(!present)('opencode real samples (copied aside first: even a read-only open writes the -shm)', () => {
  it('opencode 1.1.65 and 1.2.15 sessions (migrated to SQLite) read as finished, titled', async () => {
    const folder = join(base, 'sample-pm');
    mkdirSync(folder, { recursive: true });
    cpSync(join(SAMPLES, 'opencode-project-manager', 'tests', 'fixtures', 'opencode', 'opencode.db'), join(folder, 'opencode.db'));
    const evidence = await new OpencodeProvider(folder).sync();
    const now = Math.max(...evidence.map((item) => item.lastRecordAt ?? 0)) + 60_000;
    const all = evaluate({ sessions: evidence, facts: emptyFacts(), settings: defaultSettings(), now, onScreen: null }).snapshot.sessions;
    expect(all).toHaveLength(2);
    for (const row of all) expect(row.observed).toMatchObject({ state: 'idle', reason: 'turn-finished' });
    expect(all.map((row) => row.cwd).sort()).toEqual(['/Users/linchen/bprojects/chat', '/Users/linchen/bprojects/tmp-htmx']);
  });

  it('opencode 1.4.0 with every row in the -wal: its empty step (finish "other", zero tokens) is not called done', async () => {
    const folder = join(base, 'sample-wal');
    mkdirSync(folder, { recursive: true });
    for (const suffix of ['', '-wal', '-shm'])
      cpSync(join(SAMPLES, 'burdis28.github.io', '.local', 'share', 'opencode', `opencode.db${suffix}`), join(folder, `opencode.db${suffix}`));
    const evidence = await new OpencodeProvider(folder).sync();
    expect(evidence).toHaveLength(1);
    const now = (evidence[0]?.lastRecordAt ?? 0) + 5000;
    const [row] = evaluate({ sessions: evidence, facts: emptyFacts(), settings: defaultSettings(), now, onScreen: null }).snapshot.sessions;
    expect(row?.observed).toMatchObject({ state: 'error', detail: 'the model ended the turn without output' });
  });
});
