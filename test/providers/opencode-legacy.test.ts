// opencode's JSON storage from before its database (1.1.31's layout, pretty-printed JSON with
// 2-space indents; new-agents.md §1.1 and §1.5) and the older per-project layout: read only where
// no database exists, through the same facts as the database; the runtime sees new messages.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Row } from '../../src/engine';
import { defaultSettings, emptyFacts, evaluate } from '../../src/engine';
import { OpencodeProvider } from '../../src/providers/opencode/provider';
import { WatchProcess } from '../main/watch-process';
import { T0, database } from './opencode-db';

const base = mkdtempSync(join(tmpdir(), 'lookout-opencode-legacy-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const at = (seconds: number) => T0 + seconds * 1000;
const json = (path: string, value: unknown) => {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, JSON.stringify(value, null, 2));
};

let clock = 0;
/** opencode's ascending ids: later messages sort after earlier ones. */
const ascending = (prefix: string) => `${prefix}_${(0x19a0000000 + (clock += 1)).toString(16)}ABCDEFGHIJKLMN`;

/** The 1.1.31 layout: storage/session/<projectID>/, storage/message/<sessionID>/, storage/part/<messageID>/. */
function storage(root: string) {
  const s = join(root, 'storage');
  return {
    session(id: string, title: string, extra: Record<string, unknown> = {}) {
      json(join(s, 'session', 'global', `${id}.json`), {
        id,
        slug: 'calm-river',
        version: '1.1.31',
        projectID: 'global',
        directory: '/home/me/app',
        title,
        time: { created: at(0), updated: at(0) },
        summary: { additions: 0, deletions: 0, files: 0 },
        ...extra,
      });
    },
    message(sessionId: string, seconds: number, fields: Record<string, unknown>): string {
      const id = ascending('msg');
      json(join(s, 'message', sessionId, `${id}.json`), {
        id,
        sessionID: sessionId,
        ...fields,
        time: { created: at(seconds), ...(fields.time as object | undefined) },
      });
      return id;
    },
    part(sessionId: string, messageId: string, data: Record<string, unknown>): (data: Record<string, unknown>) => void {
      const id = ascending('prt');
      const path = join(s, 'part', messageId, `${id}.json`);
      json(path, { id, sessionID: sessionId, messageID: messageId, ...data });
      // opencode rewrites a part in place as the tool runs.
      return (next) => json(path, { id, sessionID: sessionId, messageID: messageId, ...next });
    },
  };
}
const user = { role: 'user', agent: 'build', model: { providerID: 'p', modelID: 'm' } };
const assistant = (fields: Record<string, unknown>) => ({
  role: 'assistant',
  parentID: 'msg_user',
  modelID: 'glm-4.6',
  providerID: 'p',
  mode: 'build',
  path: { cwd: '/home/me/app', root: '/home/me/app' },
  cost: 0,
  tokens: { input: 10, output: 5, reasoning: 0, cache: { read: 0, write: 0 } },
  ...fields,
});

async function rows(root: string, seconds: number): Promise<Row[]> {
  const evidence = await new OpencodeProvider(root).sync();
  return evaluate({ sessions: evidence, facts: emptyFacts(), settings: defaultSettings(), now: at(seconds), onScreen: null }).snapshot.sessions;
}

describe('opencode JSON storage (before 1.2)', () => {
  it('read again only when something in it changed: a tool part rewritten in place is seen; a change elsewhere reads nothing', async () => {
    const root = join(base, 'incremental');
    const b = storage(root);
    b.session('ses_tool', 'publish');
    b.message('ses_tool', 1, user);
    const open = b.message('ses_tool', 2, assistant({}));
    const running = {
      type: 'tool',
      callID: 'call_1',
      tool: 'question',
      state: { status: 'running', input: { questions: [{ question: 'Which?' }] }, time: { start: at(2) } },
    };
    const rewrite = b.part('ses_tool', open, running);
    const provider = new OpencodeProvider(root);
    const state = (evidence: Awaited<ReturnType<OpencodeProvider['sync']>>) =>
      evaluate({ sessions: evidence, facts: emptyFacts(), settings: defaultSettings(), now: at(30), onScreen: null }).snapshot.sessions[0]?.observed.state;
    expect(state(await provider.sync(at(30)))).toBe('awaiting-input');
    rewrite({ ...running, state: { status: 'completed', input: {}, output: 'Postgres', time: { start: at(2), end: at(3) } } });
    // A change the watcher saw elsewhere (another agent's file): this storage is not read.
    expect(state(await provider.sync(at(30), new Set([join(base, 'elsewhere.jsonl')])))).toBe('awaiting-input');
    // The part's own change: read, and the question is answered.
    expect(state(await provider.sync(at(30), new Set([join(root, 'storage', 'part', open)])))).not.toBe('awaiting-input');
  });

  it("each ending of the newest message reads as the database's would; a child session is a child; titles and folders come from the session file", async () => {
    const root = join(base, 'endings');
    const b = storage(root);
    b.session('ses_done', 'add a test');
    b.message('ses_done', 1, user);
    b.message('ses_done', 3, assistant({ time: { completed: at(4) }, finish: 'tool-calls' }));
    b.message('ses_done', 5, assistant({ time: { completed: at(6) }, finish: 'stop' }));
    b.session('ses_tool', 'publish');
    b.message('ses_tool', 1, user);
    const open = b.message('ses_tool', 2, assistant({}));
    b.part('ses_tool', open, {
      type: 'tool',
      callID: 'call_1',
      tool: 'bash',
      state: { status: 'running', input: { command: 'npm publish' }, time: { start: at(2) } },
    });
    b.session('ses_abort', 'refactor');
    b.message('ses_abort', 1, user);
    b.message('ses_abort', 2, assistant({ time: { completed: at(3) }, error: { name: 'MessageAbortedError', data: { message: 'Aborted' } } }));
    b.session('ses_child', 'survey', { parentID: 'ses_done' });
    b.message('ses_child', 7, user);
    b.message('ses_child', 8, assistant({}));
    const byKey = new Map((await rows(root, 10)).map((row) => [row.key, row]));
    expect([...byKey.keys()].sort()).toEqual(['opencode:ses_abort', 'opencode:ses_done', 'opencode:ses_tool']);
    // Its turn ended; its child session still works (R10).
    expect(byKey.get('opencode:ses_done')).toMatchObject({
      title: 'add a test',
      cwd: '/home/me/app',
      observed: { state: 'running-subagents', reason: 'child-working' },
    });
    // R3: a call running past the grace may be waiting.
    expect(byKey.get('opencode:ses_tool')?.observed).toMatchObject({ state: 'unknown', reason: 'tool-pending', detail: 'bash: npm publish' });
    expect(byKey.get('opencode:ses_abort')?.observed).toMatchObject({ state: 'idle', reason: 'interrupted' });
    expect(byKey.get('opencode:ses_done')?.children).toMatchObject({ live: 1 });
  });

  it('the older per-project layout (session/info, part/<session>/<message>) reads the same way', async () => {
    const root = join(base, 'per-project');
    const s = join(root, 'project', 'home-me-app', 'storage', 'session');
    json(join(s, 'info', 'ses_old.json'), { id: 'ses_old', title: 'fix the build', directory: '/home/me/app', time: { created: at(0), updated: at(5) } });
    json(join(s, 'message', 'ses_old', 'msg_0001.json'), { id: 'msg_0001', sessionID: 'ses_old', ...user, time: { created: at(1) } });
    json(join(s, 'message', 'ses_old', 'msg_0002.json'), { id: 'msg_0002', sessionID: 'ses_old', ...assistant({}), time: { created: at(2) } });
    json(join(s, 'part', 'ses_old', 'msg_0002', 'prt_0001.json'), {
      id: 'prt_0001',
      type: 'tool',
      callID: 'c1',
      tool: 'question',
      state: { status: 'running', input: { questions: [{ question: 'Which?' }] } },
    });
    const [row] = await rows(root, 30);
    expect(row).toMatchObject({ key: 'opencode:ses_old', title: 'fix the build', observed: { state: 'awaiting-input', reason: 'question-pending' } });
  });

  it('beside a database the JSON storage is a stale copy (1.2 migrated it once and kept it): only the database is read', async () => {
    const root = join(base, 'both');
    storage(root).session('ses_stale', 'only in the old storage');
    database(root, (b) => {
      b.session('ses_db', 'in the database');
      b.user('ses_db', 1);
    }).close();
    expect((await rows(root, 5)).map((row) => row.key)).toEqual(['opencode:ses_db']);
  });

  it('a malformed message file is passed over; a session with no messages has no evidence to show', async () => {
    const root = join(base, 'malformed');
    const b = storage(root);
    b.session('ses_a', 'a');
    b.message('ses_a', 1, user);
    b.message('ses_a', 2, assistant({ time: { completed: at(3) }, finish: 'stop' }));
    mkdirSync(join(root, 'storage', 'message', 'ses_a'), { recursive: true });
    writeFileSync(join(root, 'storage', 'message', 'ses_a', 'msg_zzzz.json'), '{"id": "msg_zzzz", "role": ');
    b.session('ses_empty', 'empty');
    const byKey = new Map((await rows(root, 10)).map((row) => [row.key, row]));
    expect(byKey.get('opencode:ses_a')?.observed).toMatchObject({ state: 'idle', reason: 'turn-finished' });
    expect(byKey.get('opencode:ses_empty')?.observed.reason).toBe('no-evidence');
  });

  it('watch: messages written to the storage of a running pre-1.2 opencode reach the snapshot (seen by the watcher, not a rescan)', async () => {
    const root = join(base, 'live');
    const b = storage(root);
    const now = Date.now();
    const seconds = (ms: number) => (ms - T0) / 1000;
    b.session('ses_live', 'live one', { time: { created: now - 60_000, updated: now - 60_000 } });
    b.message('ses_live', seconds(now - 50_000), user);
    // The rescan (the safety net) is pushed out of reach: only the watcher can report the second change.
    const env = {
      HOME: base,
      OPENCODE_DATA_DIR: root,
      LOOKOUT_HOME: join(base, 'live-home'),
      CLAUDE_CONFIG_DIR: join(base, 'none'),
      CODEX_HOME: join(base, 'none'),
      COPILOT_HOME: join(base, 'none'),
      LOOKOUT_RESCAN_MS: '3600000',
    };
    const watch = new WatchProcess([], env);
    /** A snapshot newer than those seen so far, with the session in that state. */
    const reason = (wanted: string) => {
      const after = watch.snapshots.length;
      return watch.until(
        (snapshot) =>
          watch.snapshots.indexOf(snapshot) >= after && snapshot.sessions.some((row) => row.key === 'opencode:ses_live' && row.observed.reason === wanted),
      );
    };
    try {
      await watch.until((snapshot) => snapshot.sessions.some((row) => row.key === 'opencode:ses_live' && row.observed.reason === 'turn-open'));
      const finished = reason('turn-finished');
      b.message('ses_live', seconds(Date.now()), assistant({ time: { completed: Date.now() }, finish: 'stop' }));
      // Seen by the watcher or by the read that follows its readiness: either way it is ready now.
      await finished;
      const reopened = reason('turn-open');
      b.message('ses_live', seconds(Date.now()) + 1, user);
      await reopened;
    } finally {
      await watch.stop();
    }
  });
});
