// opencode's SQLite database, read without disturbing it (../system/read-only-database.ts), in
// a few short statements: the sessions, each one's newest messages, the parts of unfinished ones.
import type { Row } from '../system/read-only-database';
import { ReadOnlyDatabase } from '../system/read-only-database';

/** The rows the provider reads: sessions, the newest messages, and the parts of unfinished ones. */
export interface SessionRow {
  id: string;
  parentId: string | null;
  directory: string | null;
  title: string | null;
  created: number;
  updated: number;
  archived: boolean;
}

export interface MessageRow {
  id: string;
  sessionId: string;
  created: number;
  data: string;
}

export interface PartRow {
  messageId: string;
  data: string;
}

export interface Snapshot {
  sessions: SessionRow[];
  /** The newest message of each session, and the newest user message (a turn's start). */
  newest: MessageRow[];
  newestUser: MessageRow[];
  parts: PartRow[];
}

/** Whether a message's data says it completed (`time.completed`). */
function completed(data: string): boolean {
  try {
    const time = (JSON.parse(data) as { time?: { completed?: unknown } } | null)?.time;
    return typeof time?.completed === 'number';
  } catch {
    return false;
  }
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const number = (value: unknown): number => (typeof value === 'number' ? value : typeof value === 'bigint' ? Number(value) : 0);

// Each session's newest message, and its newest user message, found through the index on
// (session_id, …) one session at a time: far cheaper than ranking every message (window functions).
const NEWEST = `SELECT m.id, m.session_id, m.time_created, m.data FROM session s JOIN message m ON m.id = (
  SELECT id FROM message WHERE session_id = s.id ORDER BY time_created DESC, id DESC LIMIT 1)`;
const NEWEST_USER = `SELECT m.id, m.session_id, m.time_created, m.data FROM session s JOIN message m ON m.id = (
  SELECT id FROM message WHERE session_id = s.id AND json_extract(data, '$.role') = 'user' ORDER BY time_created DESC, id DESC LIMIT 1)`;

export class OpencodeDatabase {
  private readonly file: ReadOnlyDatabase;

  constructor(readonly path: string) {
    this.file = new ReadOnlyDatabase(path, 'SELECT 1 FROM session LIMIT 1');
  }

  /** Everything the provider needs, in a few short statements. */
  async read(): Promise<Snapshot> {
    const db = this.file.connect();
    const sessions = db.prepare('SELECT id, parent_id, directory, title, time_created, time_updated, time_archived FROM session').all().map((row) => ({
      id: String(row.id),
      parentId: text(row.parent_id),
      directory: text(row.directory),
      title: text(row.title),
      created: number(row.time_created),
      updated: number(row.time_updated),
      archived: row.time_archived !== null && row.time_archived !== undefined,
    }));
    const message = (row: Row): MessageRow => ({ id: String(row.id), sessionId: String(row.session_id), created: number(row.time_created), data: String(row.data) });
    const newest = db.prepare(NEWEST).all().map(message);
    const newestUser = db.prepare(NEWEST_USER).all().map(message);
    // Parts only of newest messages not yet completed: the open tool calls live there.
    const open = newest.filter((row) => !completed(row.data)).map((row) => row.id);
    const parts: PartRow[] = [];
    for (let from = 0; from < open.length; from += 200) {
      const ids = open.slice(from, from + 200);
      const rows = db.prepare(`SELECT message_id, data FROM part WHERE message_id IN (${ids.map(() => '?').join(',')})`).all(...ids);
      for (const row of rows) parts.push({ messageId: String(row.message_id), data: String(row.data) });
    }
    return { sessions, newest, newestUser, parts };
  }

  close(): void {
    this.file.close();
  }
}
