// opencode rows Lookout cannot read are passed over and counted, never the end of every session
// (issue 25 items 9 and 10): a message whose data is not JSON, a session table of another
// version, a message or part far larger than any opencode writes.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from '@photostructure/sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import type { SessionEvidence } from '../../src/engine';
import { OpencodeProvider } from '../../src/providers/opencode/provider';
import { T0, database } from './opencode-db';

const base = mkdtempSync(join(tmpdir(), 'lookout-opencode-hostile-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const done = (seconds: number) => ({ time: { created: T0 + seconds * 1000 - 500, completed: T0 + seconds * 1000 }, finish: 'stop' });
const at = (seconds: number): number => T0 + seconds * 1000;

async function read(folder: string): Promise<{ evidence: Map<string, SessionEvidence>; problems: string[] }> {
  const provider = new OpencodeProvider(folder);
  const evidence = await provider.sync();
  return { evidence: new Map(evidence.map((item) => [item.sessionId, item])), problems: provider.problems.drain().map((problem) => problem.detail) };
}

describe('opencode rows that cannot be read', () => {
  it('issue 25 item 9: a message whose data is not JSON hides no session; it is passed over and counted', async () => {
    const folder = join(base, 'not-json');
    const db = database(folder, (b) => {
      b.session('ses_good', 'good');
      b.user('ses_good', 1);
      b.assistant('ses_good', 5, done(5));
      b.session('ses_bad', 'bad');
      b.user('ses_bad', 1);
    });
    // Older messages and the newest one of ses_bad hold what is not JSON (text, bytes).
    const insert = db.prepare('INSERT INTO message VALUES (?,?,?,?,?)');
    insert.run('msg_bad_old', 'ses_bad', at(0), at(0), '{"role": "user", broken');
    insert.run('msg_bad_blob', 'ses_bad', at(0), at(0), new Uint8Array([0xff, 0x00, 0x7b]));
    insert.run('msg_bad_new', 'ses_bad', at(9), at(9), 'not json at all');
    db.close();
    const { evidence, problems } = await read(folder);
    expect(problems).toEqual([]);
    expect(evidence.get('ses_good')).toMatchObject({ signal: { kind: 'turn-end' }, skippedLines: 0 });
    // Its newest message cannot be read: no signal is made up, the prompt before it still opens the turn.
    expect(evidence.get('ses_bad')).toMatchObject({ signal: null, turn: { startedAt: at(1) }, skippedLines: 1 });
  });

  it('issue 25 item 9: a session table of another version (no time_archived, no parent_id) is read from the columns it has', async () => {
    const folder = join(base, 'other-version');
    mkdirSync(folder, { recursive: true });
    const db = new DatabaseSync(join(folder, 'opencode.db'));
    db.exec(`CREATE TABLE session (id text PRIMARY KEY, directory text NOT NULL, title text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL);
      CREATE TABLE message (id text PRIMARY KEY, session_id text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
      CREATE TABLE part (id text PRIMARY KEY, message_id text NOT NULL, session_id text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);`);
    db.prepare('INSERT INTO session VALUES (?,?,?,?,?)').run('ses_old', '/home/me/app', 'older schema', at(0), at(0));
    db.prepare('INSERT INTO message VALUES (?,?,?,?,?)').run('msg_1', 'ses_old', at(1), at(1), JSON.stringify({ role: 'user', time: { created: at(1) } }));
    db.prepare('INSERT INTO message VALUES (?,?,?,?,?)').run('msg_2', 'ses_old', at(5), at(5), JSON.stringify({ role: 'assistant', ...done(5) }));
    db.close();
    const { evidence, problems } = await read(folder);
    expect(problems).toEqual([]);
    expect(evidence.get('ses_old')).toMatchObject({ title: 'older schema', cwd: '/home/me/app', signal: { kind: 'turn-end' }, children: [] });
  });

  it('issue 25 item 10: a message or a part over the cap never reaches Lookout; it is passed over and counted', async () => {
    const folder = join(base, 'oversized');
    const huge = 'x'.repeat(9 * 1024 * 1024);
    database(folder, (b) => {
      b.session('ses_big', 'big message');
      b.user('ses_big', 1);
      // A finished reply padded past the cap: were it read, the session would read as done.
      b.assistant('ses_big', 5, { ...done(5), padding: huge });
      b.session('ses_big_part', 'big part');
      b.user('ses_big_part', 1);
      const open = b.assistant('ses_big_part', 5, {});
      b.part('ses_big_part', open, 5, {
        type: 'tool',
        callID: 'c1',
        tool: 'bash',
        state: { status: 'running', input: { command: 'npm test' } },
        padding: huge,
      });
      b.part('ses_big_part', open, 5, { type: 'text', text: 'running the tests' });
      b.session('ses_fine', 'fine');
      b.user('ses_fine', 1);
      b.assistant('ses_fine', 5, done(5));
    }).close();
    const { evidence } = await read(folder);
    expect(evidence.get('ses_big')).toMatchObject({ signal: null, skippedLines: 1 });
    expect(evidence.get('ses_big_part')).toMatchObject({ signal: { kind: 'progress' }, skippedLines: 1 });
    expect(evidence.get('ses_fine')).toMatchObject({ signal: { kind: 'turn-end' }, skippedLines: 0 });
  });
});
