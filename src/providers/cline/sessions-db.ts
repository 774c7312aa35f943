// Cline CLI's session table (`db/sessions.db`, the CLI's primary session store; each session's
// `<id>.json` manifest is a copy without the time of its last change): one row per session and
// subagent, its first-party `status` and `updated_at`, the pid that owns it, its folder and title.
import type { Row } from '../system/read-only-database';
import { ReadOnlyDatabase } from '../system/read-only-database';

export interface SessionRow {
  id: string;
  /** The process that owned the session when it was created: the CLI, or the hub daemon hosting it. */
  pid: number | null;
  startedAt: number | null;
  endedAt: number | null;
  exitCode: number | null;
  /** The agent's own word, verbatim. */
  status: string;
  updatedAt: number | null;
  cwd: string | null;
  parentId: string | null;
  prompt: string | null;
  title: string | null;
  branch: string | null;
  /** Set by the CLI itself when it found the owning process gone (`failed_external_process_exit`). */
  marker: { reason: string; at: number | null; pid: number | null } | null;
  messagesPath: string | null;
}

// Only the fields read: metadata_json carries the system prompt, kilobytes per session. A row whose
// metadata is not JSON keeps its other columns (json_extract would fail the whole statement).
const meta = (path: string, as: string): string => `CASE WHEN json_valid(metadata_json) THEN json_extract(metadata_json, '${path}') END AS ${as}`;
const SESSIONS = `SELECT session_id, pid, started_at, ended_at, exit_code, status, cwd, parent_session_id, prompt, messages_path, updated_at,
  ${meta('$.title', 'title')}, ${meta('$.git.branch', 'branch')}, ${meta('$.terminal_marker', 'marker')},
  ${meta('$.terminal_marker_at', 'marker_at')}, ${meta('$.terminal_marker_pid', 'marker_pid')}
  FROM sessions`;

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null);

function integer(value: unknown): number | null {
  const number = typeof value === 'bigint' ? Number(value) : value;
  return typeof number === 'number' && Number.isInteger(number) ? number : null;
}

/** An ISO time, or epoch ms, as epoch ms. */
function instant(value: unknown): number | null {
  if (typeof value === 'number' || typeof value === 'bigint') return Number(value);
  if (typeof value !== 'string') return null;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ms : null;
}

function sessionRow(row: Row): SessionRow | null {
  const id = text(row.session_id);
  const status = text(row.status);
  if (id === null || status === null) return null;
  const marker = text(row.marker);
  return {
    id,
    // No process has pid 0 or less: such a row names none.
    pid: (integer(row.pid) ?? 0) > 0 ? integer(row.pid) : null,
    startedAt: instant(row.started_at),
    endedAt: instant(row.ended_at),
    exitCode: integer(row.exit_code),
    status,
    updatedAt: instant(row.updated_at),
    cwd: text(row.cwd),
    parentId: text(row.parent_session_id),
    prompt: text(row.prompt),
    title: text(row.title),
    branch: text(row.branch),
    marker: marker === null ? null : { reason: marker, at: instant(row.marker_at), pid: integer(row.marker_pid) },
    messagesPath: text(row.messages_path),
  };
}

export class SessionsDatabase {
  private readonly file: ReadOnlyDatabase;

  constructor(readonly path: string) {
    this.file = new ReadOnlyDatabase(path, 'SELECT 1 FROM sessions LIMIT 1');
  }

  read(): SessionRow[] {
    return this.file
      .connect()
      .prepare(SESSIONS)
      .all()
      .map(sessionRow)
      .filter((row) => row !== null);
  }

  close(): void {
    this.file.close();
  }
}
