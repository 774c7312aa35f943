// Writes opencode databases for tests, in the drizzle schema's columns (opencode 1.2.15) and its
// message and part shapes (new-agents.md §1.3–1.4).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from '@photostructure/sqlite';

export const T0 = Date.parse('2026-11-29T12:00:00.000Z');
let n = 0;

// The columns opencode's drizzle schema gives these tables (1.2.15; 1.4.0 adds more tables, not columns here).
const SCHEMA = `
CREATE TABLE session (id text PRIMARY KEY, project_id text NOT NULL, parent_id text, slug text NOT NULL, directory text NOT NULL, title text NOT NULL, version text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, time_compacting integer, time_archived integer);
CREATE TABLE message (id text PRIMARY KEY, session_id text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
CREATE TABLE part (id text PRIMARY KEY, message_id text NOT NULL, session_id text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
CREATE INDEX message_session_idx ON message (session_id);
CREATE INDEX part_message_idx ON part (message_id);`;

export interface Build {
  session(id: string, title: string, parent?: string | null, archived?: boolean, createdSeconds?: number): void;
  user(session: string, seconds: number, text?: string): string;
  assistant(session: string, seconds: number, fields: Record<string, unknown>): string;
  part(session: string, message: string, seconds: number, data: Record<string, unknown>): void;
}

export function database(folder: string, build: (b: Build) => void, wal = false, file = 'opencode.db'): InstanceType<typeof DatabaseSync> {
  mkdirSync(folder, { recursive: true });
  const db = new DatabaseSync(join(folder, file));
  if (wal) db.exec('PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0;');
  db.exec(SCHEMA);
  const at = (seconds: number) => T0 + seconds * 1000;
  const id = (prefix: string) => `${prefix}_${String(++n).padStart(8, '0')}`;
  build({
    session: (sid, title, parent = null, archived = false, createdSeconds = 0) => {
      db.prepare('INSERT INTO session VALUES (?,?,?,?,?,?,?,?,?,?,?)').run(
        sid,
        'global',
        parent,
        'slug',
        '/home/me/app',
        title,
        '1.2.15',
        at(createdSeconds),
        at(createdSeconds),
        null,
        archived ? T0 : null,
      );
    },
    user: (sid, seconds, text = 'add a test') => {
      const mid = id('msg');
      db.prepare('INSERT INTO message VALUES (?,?,?,?,?)').run(
        mid,
        sid,
        at(seconds),
        at(seconds),
        JSON.stringify({ role: 'user', time: { created: at(seconds) }, agent: 'build', model: { providerID: 'p', modelID: 'm' } }),
      );
      db.prepare('INSERT INTO part VALUES (?,?,?,?,?,?)').run(id('prt'), mid, sid, at(seconds), at(seconds), JSON.stringify({ type: 'text', text }));
      return mid;
    },
    assistant: (sid, seconds, fields) => {
      const mid = id('msg');
      const data = {
        role: 'assistant',
        time: { created: at(seconds) },
        parentID: 'msg_user',
        modelID: 'glm-5',
        providerID: 'p',
        mode: 'build',
        agent: 'build',
        path: { cwd: '/home/me/app', root: '/home/me/app' },
        cost: 0,
        tokens: { input: 10, output: 5, reasoning: 0, cache: { read: 0, write: 0 } },
        ...fields,
      };
      db.prepare('INSERT INTO message VALUES (?,?,?,?,?)').run(mid, sid, at(seconds), at(seconds), JSON.stringify(data));
      return mid;
    },
    part: (sid, mid, seconds, data) => {
      db.prepare('INSERT INTO part VALUES (?,?,?,?,?,?)').run(id('prt'), mid, sid, at(seconds), at(seconds), JSON.stringify(data));
    },
  });
  return db;
}
