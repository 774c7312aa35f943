// opencode's SQLite database, read without disturbing it (../system/read-only-database.ts), in
// a few short statements: the sessions, each one's newest messages, the parts of unfinished ones.
import type { Connection, Row } from '../system/read-only-database';
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
  /** Null when it cannot be read: over the cap, or not text. */
  data: string | null;
}

export interface PartRow {
  messageId: string;
  /** Null when it cannot be read: over the cap, or not text. */
  data: string | null;
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

/**
 * The largest message or part `data` handed to Lookout (opencode's are kilobytes; a user message
 * carrying file diffs may reach megabytes): a larger one is passed over inside SQLite and counted.
 */
const DATA_CAP_BYTES = 8 * 1024 * 1024;

// typeof() and octet_length() never load the value, so an oversized row costs nothing to refuse.
const readable = (column: string): string => `typeof(${column}) = 'text' AND octet_length(${column}) <= ${DATA_CAP_BYTES}`;
const capped = (column: string): string => `CASE WHEN ${readable(column)} THEN ${column} END`;
// A CASE decides in order: only text within the cap that is valid JSON meets json_extract, which
// would otherwise fail the whole statement on one malformed row.
const ROLE = `CASE WHEN NOT (${readable('data')}) THEN NULL WHEN json_valid(data) THEN json_extract(data, '$.role') END`;

// Each session's newest message, and its newest user message, found through the index on
// (session_id, …) one session at a time: far cheaper than ranking every message (window functions).
const NEWEST = `SELECT m.id, m.session_id, m.time_created, ${capped('m.data')} AS data FROM session s JOIN message m ON m.id = (
  SELECT id FROM message WHERE session_id = s.id ORDER BY time_created DESC, id DESC LIMIT 1)`;
const NEWEST_USER = `SELECT m.id, m.session_id, m.time_created, m.data FROM session s JOIN message m ON m.id = (
  SELECT id FROM message WHERE session_id = s.id AND ${ROLE} = 'user' ORDER BY time_created DESC, id DESC LIMIT 1)`;

/** The session columns read; a version whose table lacks one reads it as absent (only the id is needed). */
const SESSION_COLUMNS = ['id', 'parent_id', 'directory', 'title', 'time_created', 'time_updated', 'time_archived'] as const;

function sessionQuery(db: Connection): string {
  const present = new Set(
    db
      .prepare("SELECT name FROM pragma_table_info('session')")
      .all()
      .map((row) => String(row.name)),
  );
  if (!present.has('id')) throw new Error('its session table has no id column');
  return `SELECT ${SESSION_COLUMNS.map((column) => (present.has(column) ? column : `NULL AS ${column}`)).join(', ')} FROM session`;
}

const dataOf = (value: unknown): string | null => (typeof value === 'string' ? value : null);

export class OpencodeDatabase {
  private readonly file: ReadOnlyDatabase;

  constructor(readonly path: string) {
    this.file = new ReadOnlyDatabase(path, 'SELECT 1 FROM session LIMIT 1');
  }

  /** Everything the provider needs, in a few short statements. */
  async read(): Promise<Snapshot> {
    const db = this.file.connect();
    // A row with no id is no session Lookout could name: passed over.
    const sessions = db
      .prepare(sessionQuery(db))
      .all()
      .flatMap((row) =>
        typeof row.id !== 'string' && typeof row.id !== 'number'
          ? []
          : [
              {
                id: String(row.id),
                parentId: text(row.parent_id),
                directory: text(row.directory),
                title: text(row.title),
                created: number(row.time_created),
                updated: number(row.time_updated),
                archived: row.time_archived !== null && row.time_archived !== undefined,
              },
            ],
      );
    const message = (row: Row): MessageRow => ({
      id: String(row.id),
      sessionId: String(row.session_id),
      created: number(row.time_created),
      data: dataOf(row.data),
    });
    const newest = db.prepare(NEWEST).all().map(message);
    const newestUser = db.prepare(NEWEST_USER).all().map(message);
    // Parts only of newest messages not yet completed: the open tool calls live there.
    const open = newest.filter((row) => row.data !== null && !completed(row.data)).map((row) => row.id);
    const parts: PartRow[] = [];
    for (let from = 0; from < open.length; from += 200) {
      const ids = open.slice(from, from + 200);
      const rows = db.prepare(`SELECT message_id, ${capped('data')} AS data FROM part WHERE message_id IN (${ids.map(() => '?').join(',')})`).all(...ids);
      for (const row of rows) parts.push({ messageId: String(row.message_id), data: dataOf(row.data) });
    }
    return { sessions, newest, newestUser, parts };
  }

  close(): void {
    this.file.close();
  }
}
