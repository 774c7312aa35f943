// Cline CLI's hub daemon: a background process that hosts sessions for the terminal clients
// attached to them and outlives them. Its discovery file (`locks/hub/<name>.json`: pid, startedAt)
// says whether it runs; its event log (`db/hub-events-hub-<name>.db`, kept seven days) says which
// clients are attached to each session it hosts, and when a client went away.
import { join } from 'node:path';
import { listFolder } from '../list-folder';
import type { Problems } from '../problems';
import { errorCode } from '../problems';
import type { JsonRecord } from '../jsonl/parse-record';
import { arr, num, obj, parseRecord, str, time } from '../jsonl/parse-record';
import type { Row } from '../system/read-only-database';
import { ReadOnlyDatabase } from '../system/read-only-database';
import { pidAlive, processStartedAt } from '../system/process';
import { READ_CAPS, readRegularText } from '../system/safe-read';

/** A process writes its discovery file just after it starts: a little slack for clocks. */
const START_SLACK_MS = 2_000;

export interface Hub {
  pid: number;
  startedAt: number | null;
  /** Its process still runs, and is the one that wrote the file (R7). */
  alive: boolean;
  /** Its event log. */
  events: string;
}

/** Who was attached to one hosted session at the newest event that lists them. */
export interface Attachment {
  at: number;
  clients: { id: string; attachedAt: number | null }[];
}

/** A client's connection closed: when (a client is one connection of one terminal). */
export type Disconnects = ReadonlyMap<string, number>;

function hubOf(db: string, name: string, record: JsonRecord | null): Hub | null {
  const pid = num(record?.pid);
  if (pid === null || !Number.isInteger(pid) || pid <= 0) return null;
  const startedAt = time(record?.startedAt);
  const started = pidAlive(pid) ? processStartedAt(pid) : null;
  const alive = pidAlive(pid) && (startedAt === null || started === null || started <= startedAt + START_SLACK_MS);
  return { pid, startedAt, alive, events: join(db, `hub-events-hub-${name}.db`) };
}

/** The hubs the data folder knows (one per release channel: `production.json`). */
export function readHubs(root: string, db: string, problems: Problems): Hub[] {
  const folder = join(root, 'locks', 'hub');
  const hubs: Hub[] = [];
  for (const entry of listFolder(folder, problems)) {
    const name = /^([A-Za-z0-9_-]+)\.json$/.exec(entry.name)?.[1];
    if (name === undefined || !entry.isFile()) continue;
    const path = join(folder, entry.name);
    try {
      const hub = hubOf(db, name, parseRecord(readRegularText(path, READ_CAPS.smallJson).trim()));
      if (hub !== null) hubs.push(hub);
    } catch (error) {
      // Replaced while read (the hub rewrites it): the next read sees the new one.
      if (errorCode(error) !== 'ENOENT') problems.add({ kind: 'unreadable', path, detail: errorCode(error) ?? String(error) });
    }
  }
  return hubs;
}

// The newest event of a session that lists its participants; the index on (session_id, sequence) walks it backwards.
const ATTACHMENT = `SELECT created_at, json_extract(envelope_json, '$.payload.session.participants') AS participants FROM hub_events
  WHERE session_id = ? AND event IN ('session.created', 'session.attached', 'session.detached', 'session.updated')
  AND json_valid(envelope_json) AND json_type(envelope_json, '$.payload.session.participants') = 'array'
  ORDER BY sequence DESC LIMIT 1`;
// Client events carry no session: the same index finds them.
const DISCONNECTS = `SELECT created_at, json_extract(envelope_json, '$.payload.clientId') AS client FROM hub_events
  WHERE session_id IS NULL AND event = 'hub.client.disconnected' AND json_valid(envelope_json)`;

function attachmentOf(row: Row | undefined): Attachment | null {
  if (row === undefined || typeof row.participants !== 'string') return null;
  let participants: unknown;
  try {
    participants = JSON.parse(row.participants);
  } catch {
    return null;
  }
  const clients = arr(participants).flatMap((item) => {
    const participant = obj(item);
    const id = str(participant?.clientId);
    return id === null ? [] : [{ id, attachedAt: num(participant?.attachedAt) }];
  });
  return { at: Number(row.created_at), clients };
}

export class HubEvents {
  private readonly file: ReadOnlyDatabase;

  constructor(readonly path: string) {
    this.file = new ReadOnlyDatabase(path, 'SELECT 1 FROM hub_events LIMIT 1');
  }

  /** Each asked session's attachment, where the log still holds one. */
  read(sessionIds: readonly string[]): { attachments: Map<string, Attachment>; disconnects: Disconnects } {
    const db = this.file.connect();
    const attachments = new Map<string, Attachment>();
    const statement = db.prepare(ATTACHMENT);
    for (const id of sessionIds) {
      const attachment = attachmentOf(statement.all(id)[0]);
      if (attachment !== null) attachments.set(id, attachment);
    }
    const disconnects = new Map<string, number>();
    for (const row of db.prepare(DISCONNECTS).all()) {
      if (typeof row.client === 'string') disconnects.set(row.client, Math.max(disconnects.get(row.client) ?? 0, Number(row.created_at)));
    }
    return { attachments, disconnects };
  }

  close(): void {
    this.file.close();
  }
}

/**
 * Whether a terminal is still attached to a hosted session: a participant whose connection has
 * not closed, attached to the hub that runs now (a restarted hub forgot the old connections).
 * When none is, the moment the last one went.
 */
export function attachedClients(attachment: Attachment, disconnects: Disconnects, hub: Hub): { attached: boolean; goneAt: number } {
  let goneAt = attachment.at;
  let attached = false;
  for (const client of attachment.clients) {
    const closed = disconnects.get(client.id);
    const beforeHub = hub.startedAt !== null && client.attachedAt !== null && client.attachedAt < hub.startedAt - START_SLACK_MS;
    if (closed === undefined && !beforeHub) attached = true;
    if (closed !== undefined) goneAt = Math.max(goneAt, closed);
  }
  return { attached, goneAt };
}
