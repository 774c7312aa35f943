// A Cline CLI data folder made by hand for the tests: its session table (the schema 3.0.65
// creates), each session's messages file, a hub's discovery file and its event log.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from '@photostructure/sqlite';
import type { Row } from '../../src/engine';
import { defaultSettings, emptyFacts, evaluate } from '../../src/engine';
import type { OwnerCheck } from '../../src/providers/cline/liveness';
import { ClineProvider } from '../../src/providers/cline/provider';

// As `cline` 3.0.65 creates it (db/sessions.db).
const SESSIONS_TABLE = `CREATE TABLE sessions (
  session_id TEXT PRIMARY KEY, source TEXT NOT NULL, pid INTEGER NOT NULL, started_at TEXT NOT NULL, ended_at TEXT,
  exit_code INTEGER, status TEXT NOT NULL, status_lock INTEGER NOT NULL DEFAULT 0, interactive INTEGER NOT NULL,
  provider TEXT NOT NULL, model TEXT NOT NULL, cwd TEXT NOT NULL, workspace_root TEXT NOT NULL, team_name TEXT,
  enable_tools INTEGER NOT NULL, enable_spawn INTEGER NOT NULL, enable_teams INTEGER NOT NULL, parent_session_id TEXT,
  parent_agent_id TEXT, agent_id TEXT, conversation_id TEXT, is_subagent INTEGER NOT NULL DEFAULT 0, prompt TEXT,
  metadata_json TEXT, transcript_path TEXT NOT NULL DEFAULT '', hook_path TEXT NOT NULL, messages_path TEXT, updated_at TEXT NOT NULL)`;
// As the hub creates it (db/hub-events-hub-production.db).
const EVENTS_TABLE = `CREATE TABLE hub_events (sequence INTEGER PRIMARY KEY AUTOINCREMENT, event TEXT NOT NULL, session_id TEXT,
  envelope_json TEXT NOT NULL, created_at INTEGER NOT NULL)`;

export interface SessionSpec {
  id: string;
  status: string;
  updatedAt: number;
  pid?: number;
  startedAt?: number;
  endedAt?: number | null;
  exitCode?: number | null;
  parentId?: string | null;
  prompt?: string | null;
  metadata?: unknown;
  /** The file's content: written to sessions/<parent or id>/<id>.messages.json; null writes none. */
  messages?: unknown[] | null;
  /** `messages_path` as the row gives it (default: where the messages are written). */
  messagesPath?: string | null;
}

export const iso = (ms: number): string => new Date(ms).toISOString();

/** A message as the CLI saves it. */
export const user = (ts: number, text: string): unknown => ({
  id: `u${ts}`,
  role: 'user',
  content: [{ type: 'text', text: `<user_input mode="act">${text}</user_input>` }],
  ts,
});
export const reply = (ts: number, text: string): unknown => ({ id: `a${ts}`, role: 'assistant', content: [{ type: 'text', text }], ts });
export const call = (ts: number, id: string, name: string, input: unknown): unknown => ({
  id: `a${ts}`,
  role: 'assistant',
  content: [{ type: 'tool_use', id, name, input }],
  ts,
});
export const result = (ts: number, id: string, name: string): unknown => ({
  id: `r${ts}`,
  role: 'user',
  content: [{ type: 'tool_result', tool_use_id: id, name, content: 'ok' }],
  ts,
});
export const failure = (ts: number, text: string): unknown => ({
  id: `error_${ts}`,
  role: 'assistant',
  content: [{ type: 'text', text }],
  ts,
  metadata: { displayOnly: true, displayRole: 'error' },
});

export class ClineHome {
  readonly root: string;
  private readonly sessions: InstanceType<typeof DatabaseSync>;
  private events: InstanceType<typeof DatabaseSync> | null = null;

  constructor() {
    this.root = join(mkdtempSync(join(tmpdir(), 'lookout-cline-')), 'data');
    mkdirSync(join(this.root, 'db'), { recursive: true });
    this.sessions = new DatabaseSync(join(this.root, 'db', 'sessions.db'));
    this.sessions.exec(SESSIONS_TABLE);
  }

  session(spec: SessionSpec): this {
    const folder = join(this.root, 'sessions', spec.parentId ?? spec.id);
    const path = join(folder, `${spec.id}.messages.json`);
    if (spec.messages !== null) {
      mkdirSync(folder, { recursive: true });
      writeFileSync(
        path,
        JSON.stringify(
          {
            version: 1,
            updated_at: iso(spec.updatedAt),
            agent: spec.parentId === undefined || spec.parentId === null ? 'lead' : 'subagent',
            sessionId: spec.id,
            messages: spec.messages ?? [],
          },
          null,
          2,
        ),
      );
    }
    const started = spec.startedAt ?? spec.updatedAt - 60_000;
    this.sessions
      .prepare(`INSERT OR REPLACE INTO sessions (session_id, source, pid, started_at, ended_at, exit_code, status, interactive, provider, model, cwd, workspace_root,
        enable_tools, enable_spawn, enable_teams, parent_session_id, is_subagent, prompt, metadata_json, hook_path, messages_path, updated_at)
        VALUES (?, 'cli', ?, ?, ?, ?, ?, 1, 'openai-compatible', 'fake-model', '/work/project', '/work/project', 1, 1, 1, ?, ?, ?, ?, '', ?, ?)`)
      .run(
        spec.id,
        spec.pid ?? 4242,
        iso(started),
        spec.endedAt === undefined || spec.endedAt === null ? null : iso(spec.endedAt),
        spec.exitCode ?? null,
        spec.status,
        spec.parentId ?? null,
        spec.parentId === undefined || spec.parentId === null ? 0 : 1,
        spec.prompt === undefined ? '<user_input mode="act">a prompt</user_input>' : spec.prompt,
        spec.metadata === undefined
          ? JSON.stringify({ title: `title of ${spec.id}` })
          : typeof spec.metadata === 'string'
            ? spec.metadata
            : JSON.stringify(spec.metadata),
        spec.messagesPath === undefined ? path : spec.messagesPath,
        iso(spec.updatedAt),
      );
    return this;
  }

  /** The hub's discovery file (`locks/hub/production.json`). */
  hub(pid: number, startedAt: number): this {
    mkdirSync(join(this.root, 'locks', 'hub'), { recursive: true });
    writeFileSync(join(this.root, 'locks', 'hub', 'production.json'), JSON.stringify({ hubId: 'hub_lab', pid, startedAt: iso(startedAt), port: 25463 }));
    return this;
  }

  /** One event of the hub's log; a session event lists its participants. */
  hubEvent(event: string, at: number, sessionId: string | null, payload: unknown): this {
    if (this.events === null) {
      this.events = new DatabaseSync(join(this.root, 'db', 'hub-events-hub-production.db'));
      this.events.exec(EVENTS_TABLE);
    }
    const envelope = { version: 'v1', event, eventId: `hevt_${at}`, ...(sessionId === null ? {} : { sessionId }), timestamp: at, payload };
    this.events
      .prepare('INSERT INTO hub_events (event, session_id, envelope_json, created_at) VALUES (?, ?, ?, ?)')
      .run(event, sessionId, JSON.stringify(envelope), at);
    return this;
  }

  /** A hosted session's participants, as the hub lists them in its session events. */
  attached(event: string, at: number, sessionId: string, clients: readonly string[]): this {
    return this.hubEvent(event, at, sessionId, {
      session: { sessionId, status: 'idle', participants: clients.map((clientId) => ({ clientId, attachedAt: at, role: 'creator' })) },
    });
  }

  close(): void {
    this.sessions.close();
    this.events?.close();
  }
}

/** Every row Lookout derives from the folder at `now`, its owners judged by `check`. */
export async function rowsOf(root: string, now: number, check: OwnerCheck = () => 'alive'): Promise<Row[]> {
  const source = new ClineProvider(root, check);
  const sessions = await source.sync(now);
  source.dispose();
  return evaluate({ sessions, facts: emptyFacts(), settings: defaultSettings(), now, onScreen: null }).snapshot.sessions;
}
