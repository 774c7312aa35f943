// opencode's SQLite database, read without disturbing it: read-only (closing never checkpoints
// or removes its -wal), short statements (no read transaction left open to hold back its
// checkpoints), a busy timeout that only ever makes Lookout wait. Rows still in the -wal are read.
// A folder Lookout cannot write lacks a -shm to share: the files are copied aside and read there.
import { copyFileSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

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

type Row = Record<string, unknown>;
interface Statement {
  all(...params: unknown[]): Row[];
}
interface Connection {
  prepare(sql: string): Statement;
  close(): void;
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

/**
 * The native SQLite module, loaded only where an opencode database exists (every other run never
 * pays for it), with `require`: the command line runs from a code cache where `import()` is not
 * available. From the bundle (CommonJS) its own path; under the test runner, the project's root.
 */
function loadSqlite(): typeof import('@photostructure/sqlite') {
  const { createRequire } = process.getBuiltinModule('node:module');
  const from = typeof __filename === 'string' ? __filename : join(process.cwd(), 'package.json');
  return createRequire(from)('@photostructure/sqlite') as typeof import('@photostructure/sqlite');
}

export class OpencodeDatabase {
  private connection: Connection | null = null;
  private copy: string | null = null;
  /** The file the connection has open: a database replaced under the same name is opened anew. */
  private ino: number | null = null;

  constructor(readonly path: string) {}

  private open(): Connection {
    if (this.connection !== null) return this.connection;
    const { DatabaseSync } = loadSqlite();
    try {
      this.connection = new DatabaseSync(this.path, { readOnly: true, timeout: 500 }) as unknown as Connection;
      this.connection.prepare('SELECT 1 FROM session LIMIT 1').all();
    } catch (error) {
      this.connection?.close();
      this.connection = null;
      // No -shm to share and no right to make one (a read-only folder): read a private copy.
      if (!/unable to open/i.test(error instanceof Error ? error.message : String(error))) throw error;
      this.connection = new DatabaseSync(this.privateCopy(), { readOnly: true, timeout: 500 }) as unknown as Connection;
    }
    return this.connection;
  }

  private privateCopy(): string {
    this.discardCopy();
    const folder = mkdtempSync(join(tmpdir(), 'lookout-opencode-'));
    const target = join(folder, basename(this.path));
    for (const suffix of ['', '-wal', '-shm']) if (existsSync(`${this.path}${suffix}`)) copyFileSync(`${this.path}${suffix}`, `${target}${suffix}`);
    this.copy = folder;
    return target;
  }

  private discardCopy(): void {
    if (this.copy !== null) rmSync(this.copy, { recursive: true, force: true });
    this.copy = null;
  }

  /** Everything the provider needs, in a few short statements. */
  async read(): Promise<Snapshot> {
    // A private copy is a picture of one moment: each read takes a fresh one. A database replaced
    // under its name (a restore, a reinstall) is another file: the old connection would read the old one.
    const ino = statSync(this.path).ino;
    if (this.copy !== null || (this.ino !== null && this.ino !== ino)) this.close();
    this.ino = ino;
    const db = this.open();
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
    this.connection?.close();
    this.connection = null;
    this.ino = null;
    this.discardCopy();
  }
}
