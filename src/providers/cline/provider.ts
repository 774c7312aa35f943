// Cline CLI as evidence: the session table (each session's own status and when it changed), each
// session's saved messages, and whether its process — or a terminal attached to the hub hosting
// it — is still there. Subagents are rows of the same table with a parent: children, never rows.
import { lstatSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { ChildEvidence, Liveness, SessionEvidence } from '../../engine';
import { Problems, errorCode } from '../problems';
import type { EvidenceSource } from '../source';
import { touchesRoot } from '../source';
import type { SessionIndexPort } from '../session-index';
import { NO_INDEX } from '../session-index';
import { databaseStamp } from '../system/read-only-database';
import type { ClineFolders } from './folders';
import type { Attachment, Disconnects, Hub } from './hub';
import { HubEvents, readHubs } from './hub';
import type { Hosted, OwnerCheck } from './liveness';
import { checkOwner, sessionLiveness } from './liveness';
import type { MessagesFacts } from './messages';
import { promptText } from './messages';
import { MessagesFiles } from './messages-file';
import type { SessionRow } from './sessions-db';
import { SessionsDatabase } from './sessions-db';
import { ENDED_STATUSES, childSignal, statusFacts } from './status';

export const MESSAGES_SOURCE = 'cline.messages';
/** The hub keeps its event log seven days. */
const HUB_LOG_KEEPS_MS = 7 * 24 * 3600 * 1000;
const PROVIDER = 'cline';

/** A regular file (a link, a FIFO or a device is never opened as a database). */
function isRegular(path: string): boolean {
  try {
    return lstatSync(path).isFile();
  } catch {
    return false;
  }
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

const max = (...values: (number | null)[]): number | null =>
  values.reduce<number | null>((best, value) => (value === null ? best : best === null ? value : Math.max(best, value)), null);

export class ClineProvider implements EvidenceSource {
  readonly name = PROVIDER;
  readonly problems = new Problems();
  private readonly messages: MessagesFiles;
  private sessions: { stamp: string; rows: SessionRow[]; database: SessionsDatabase } | null = null;
  private readonly hubLogs = new Map<
    string,
    { stamp: string; asked: string; read: { attachments: Map<string, Attachment>; disconnects: Disconnects }; log: HubEvents }
  >();
  private last: { signature: string; evidence: SessionEvidence[] } | null = null;

  constructor(
    readonly root: string,
    private readonly check: OwnerCheck = checkOwner,
    index: SessionIndexPort = NO_INDEX,
    private readonly folders: ClineFolders = { db: join(root, 'db'), sessions: join(root, 'sessions') },
  ) {
    this.messages = new MessagesFiles(this.problems, index);
  }

  async sync(now: number, changed?: ReadonlySet<string>): Promise<SessionEvidence[]> {
    if (this.last !== null && ![this.root, this.folders.db, this.folders.sessions].some((folder) => touchesRoot(changed, folder))) return this.last.evidence;
    const rows = this.rows();
    const hubs = readHubs(this.root, this.folders.db, this.problems);
    const roots = rows.filter((row) => row.parentId === null);
    const paths = new Map(rows.map((row) => [row.id, this.messagesPath(row)]));
    const read = new Map(rows.map((row) => [row.id, this.messages.read(paths.get(row.id) ?? '')]));
    this.messages.keepOnly(new Set(paths.values()));
    // Only sessions that can still be live and whose events the hubs' logs can still hold are looked up there.
    const hosted = this.hosted(
      roots.filter((row) => !ENDED_STATUSES.has(row.status) && row.marker === null && (row.updatedAt ?? now) >= now - HUB_LOG_KEEPS_MS),
      hubs,
    );
    // Liveness changes with no file change (a process exits): it is part of the signature.
    const livenesses = roots.map((row) => sessionLiveness(row, hosted.get(row.id) ?? null, hubs, now, this.check));
    const signature = JSON.stringify([
      this.sessions?.stamp ?? null,
      [...read.values()].map((item) => item.stamp),
      [...this.hubLogs.values()].map((item) => item.stamp),
      livenesses,
    ]);
    if (this.last !== null && this.last.signature === signature) return this.last.evidence;
    const children = this.children(rows, read);
    const evidence = roots.flatMap((row, index) => {
      const messages = read.get(row.id);
      if (messages === undefined) return [];
      return this.evidenceOf(row, messages.facts, messages.skipped, livenesses[index] ?? { kind: 'unreported' }, children.get(row.id) ?? []);
    });
    this.last = { signature, evidence };
    return evidence;
  }

  /** The session table, read again when it or its -wal changed; the last good reading while it cannot be read. */
  private rows(): SessionRow[] {
    const path = join(this.folders.db, 'sessions.db');
    if (!isRegular(path)) {
      this.sessions?.database.close();
      this.sessions = null;
      return [];
    }
    const stamp = databaseStamp(path);
    if (this.sessions?.stamp === stamp) return this.sessions.rows;
    const database = this.sessions?.database ?? new SessionsDatabase(path);
    try {
      this.sessions = { stamp, rows: database.read(), database };
    } catch (error) {
      // Locked, corrupt, replaced mid-read: said once; read again next time.
      database.close();
      // SQLite's own words ("database is locked", "file is not a database") say more than its code.
      const message = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
      const code = errorCode(error);
      this.problems.add({ kind: 'unreadable', path, detail: code === null || code.startsWith('ERR_SQLITE') ? message || 'error' : code });
      this.sessions = { stamp: '', rows: this.sessions?.rows ?? [], database };
    }
    return this.sessions.rows;
  }

  /**
   * Where the CLI keeps a session's messages in this data folder (a subagent's in its parent's
   * folder, under the name the row gives); else the path the row wrote, for sessions kept in a
   * folder of their own (CLINE_SESSION_DATA_DIR). The folder may have moved since (a copy, a backup).
   */
  private messagesPath(row: SessionRow): string {
    const named = row.messagesPath?.endsWith('.messages.json') ? row.messagesPath : null;
    const here = join(this.folders.sessions, row.parentId ?? row.id, named === null ? `${row.id}.messages.json` : basename(named));
    return named === null || exists(here) ? here : named;
  }

  /** Each live session the hubs' event logs know, with who is attached (the newest word when several logs know it). */
  private hosted(live: readonly SessionRow[], hubs: readonly Hub[]): Map<string, Hosted> {
    const found = new Map<string, Hosted>();
    const ids = live.map((row) => row.id);
    for (const hub of hubs) {
      if (!isRegular(hub.events)) continue;
      const read = this.hubLog(hub.events, ids);
      if (read === null) continue;
      for (const [id, attachment] of read.attachments) {
        const before = found.get(id);
        if (before === undefined || attachment.at > before.attachment.at) found.set(id, { hub, attachment, disconnects: read.disconnects });
      }
    }
    return found;
  }

  private hubLog(path: string, ids: readonly string[]): { attachments: Map<string, Attachment>; disconnects: Disconnects } | null {
    const stamp = databaseStamp(path);
    const asked = ids.join(',');
    const kept = this.hubLogs.get(path);
    if (kept !== undefined && kept.stamp === stamp && kept.asked === asked) return kept.read;
    const log = kept?.log ?? new HubEvents(path);
    try {
      const read = ids.length === 0 ? { attachments: new Map<string, Attachment>(), disconnects: new Map<string, number>() } : log.read(ids);
      this.hubLogs.set(path, { stamp, asked, read, log });
      return read;
    } catch (error) {
      log.close();
      this.hubLogs.delete(path);
      this.problems.add({ kind: 'unreadable', path, detail: error instanceof Error ? (error.message.split('\n')[0] ?? 'error') : String(error) });
      return null;
    }
  }

  /** Subagents by their parent session. */
  private children(rows: readonly SessionRow[], read: ReadonlyMap<string, { facts: MessagesFacts }>): Map<string, ChildEvidence[]> {
    const children = new Map<string, ChildEvidence[]>();
    for (const row of rows) {
      if (row.parentId === null) continue;
      const facts = read.get(row.id)?.facts;
      if (facts === undefined) continue;
      const signal = childSignal(row, facts);
      const startedAt = row.startedAt ?? facts.turn?.startedAt ?? signal?.at;
      if (startedAt === undefined || startedAt === null) continue;
      const list = children.get(row.parentId) ?? [];
      list.push({
        id: row.id,
        name: row.title ?? (row.prompt === null ? null : promptText(row.prompt)) ?? facts.firstPrompt ?? row.id,
        role: 'agent',
        source: MESSAGES_SOURCE,
        startedAt,
        lastAt: max(row.updatedAt, row.endedAt, facts.lastAt, signal?.at ?? null) ?? startedAt,
        signal,
        request: null,
      });
      children.set(row.parentId, list);
    }
    return children;
  }

  private evidenceOf(row: SessionRow, messages: MessagesFacts, skipped: number, liveness: Liveness, children: ChildEvidence[]): SessionEvidence[] {
    const asked = row.prompt === null ? null : promptText(row.prompt).trim();
    // A terminal opened and left without a prompt: nothing happened yet.
    if (messages.count === 0 && (asked === null || asked === '') && row.status !== 'running' && row.status !== 'pending') return [];
    const { signal, turn, direct } = statusFacts(row, messages);
    return [
      {
        provider: PROVIDER,
        sessionId: row.id,
        title: row.title ?? (asked === '' ? null : asked) ?? messages.firstPrompt,
        cwd: row.cwd,
        branch: row.branch,
        transcriptSource: MESSAGES_SOURCE,
        lastRecordAt: max(row.updatedAt, row.endedAt, messages.lastAt, signal?.at ?? null),
        signal,
        turn,
        direct,
        liveness,
        children,
        workingTree: { kind: 'unknown' },
        notices: [],
        skippedLines: skipped,
        answeredAt: messages.answeredAt,
      },
    ];
  }

  dispose(): void {
    this.sessions?.database.close();
    this.sessions = null;
    for (const kept of this.hubLogs.values()) kept.log.close();
    this.hubLogs.clear();
    this.last = null;
  }
}
