// opencode as evidence: every database in its data folder (opencode.db, or a channel's
// opencode-<channel>.db), re-read when the database or its -wal changes. Sessions with a parent
// are children of that session's row (R10–R13), never rows.
import type { Dirent } from 'node:fs';
import { readdirSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import type { ChildEvidence, SessionEvidence, TranscriptSignal, TurnEvidence } from '../../engine';
import { plainEqual } from '../../engine';
import { listFolder } from '../list-folder';
import { Problems, errorCode } from '../problems';
import type { EvidenceSource } from '../source';
import type { MessageRow, PartRow, SessionRow, Snapshot } from './database';
import { OpencodeDatabase } from './database';
import { databaseStamp } from '../system/read-only-database';
import { procHolders } from '../system/file-holders';
import { WriterCheck } from '../open-turn';
import { LegacyStorage } from './legacy-storage';
import type { JsonRecord } from '../jsonl/parse-record';
import { assistantSignal, createdAt, messageData } from './messages';

/**
 * An agent that keeps opencode's database (opencode itself, and its forks such as Kilo CLI): its
 * id, its database's file names, its source names, and whether a JSON storage of releases before
 * 1.2 may be the truth instead.
 */
export interface OpencodeFlavor {
  provider: string;
  /** The database files: `<name>.db`, or a channel's `<name>-<channel>.db`. */
  database: RegExp;
  databaseSource: string;
  /** The liveness source: whether any process holds the database open for writing. */
  writerSource: string;
  legacyStorage: boolean;
}

export const DATABASE_SOURCE = 'opencode.db';
/** The liveness source: whether any process holds the database open for writing. */
const WRITER_SOURCE = 'opencode.db-writer';

const OPENCODE_FLAVOR: OpencodeFlavor = {
  provider: 'opencode',
  database: /^opencode(-[A-Za-z0-9._]+)?\.db$/,
  databaseSource: DATABASE_SOURCE,
  writerSource: WRITER_SOURCE,
  legacyStorage: true,
};

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Whether the folder holds a database of this flavor (then any JSON storage beside it is a stale copy). */
export function hasDatabase(root: string, flavor: OpencodeFlavor = OPENCODE_FLAVOR): boolean {
  try {
    return readdirSync(root).some((name) => flavor.database.test(name));
  } catch {
    return false;
  }
}

/** A message's parts as read, and how many could not be (over the cap, not a JSON object). */
function readParts(rows: readonly PartRow[]): { parts: JsonRecord[]; skipped: number } {
  const parts = rows.map((part) => messageData(part.data)).filter((part) => part !== null);
  return { parts, skipped: rows.length - parts.length };
}

/** A message as a signal and its time: a user message opens a turn; an assistant one says how it stands. */
function signalOf(message: MessageRow | undefined, parts: readonly JsonRecord[]): TranscriptSignal | null {
  if (message === undefined) return null;
  const data = messageData(message.data);
  if (data === null) return null;
  const at = createdAt(data, message.created);
  if (data.role === 'user') return { kind: 'prompt', at };
  return assistantSignal(data, at, parts);
}

function turnOf(prompt: MessageRow | undefined, signal: TranscriptSignal | null): TurnEvidence | null {
  const data = prompt === undefined ? null : messageData(prompt.data);
  if (prompt === undefined || data === null) return null;
  const ended =
    signal !== null && (signal.kind === 'turn-end' || signal.kind === 'interrupted' || signal.kind === 'api-error' || signal.kind === 'usage-limit');
  return { startedAt: createdAt(data, prompt.created), endedAt: ended ? signal.at : null, durationMs: null };
}

/** How long a database must have been quiet before its writers are looked for. */
const QUIET_MS = 2_000;

export class OpencodeProvider implements EvidenceSource {
  readonly name: string;
  readonly problems = new Problems();
  private readonly databases = new Map<string, OpencodeDatabase>();
  private readonly snapshots = new Map<string, { stamp: string; snapshot: Snapshot }>();
  private last: { stamp: string; evidence: SessionEvidence[] } | null = null;

  private readonly legacy: LegacyStorage;

  private readonly writers: WriterCheck;

  constructor(
    readonly root: string,
    private readonly flavor: OpencodeFlavor = OPENCODE_FLAVOR,
    /** The database the agent's own variable names (OPENCODE_DB), read beside those of the folder. */
    private readonly named: string | null = null,
  ) {
    this.name = flavor.provider;
    this.legacy = new LegacyStorage(root, this.problems);
    this.writers = new WriterCheck(flavor.writerSource);
  }

  /** The database files: a database and its -wal, by size and time (the -wal grows with every step). */
  private files(): string[] {
    const found = listFolder(this.root, this.problems)
      .filter((entry: Dirent) => entry.isFile() && this.flavor.database.test(entry.name))
      .map((entry) => join(this.root, entry.name));
    return this.named !== null && !found.includes(this.named) && isFile(this.named) ? [...found, this.named] : found;
  }

  private stampOf(path: string): string {
    return databaseStamp(path);
  }

  async sync(_now?: number, changed?: ReadonlySet<string>): Promise<SessionEvidence[]> {
    const paths = this.files();
    // No database: a release before 1.2, whose JSON storage is the truth (with one, it is a stale
    // copy). Read again only when something under its folder changed (or on a full rescan).
    if (paths.length === 0) {
      if (!this.flavor.legacyStorage) return this.settle([]);
      if (this.last?.stamp === 'legacy' && changed !== undefined && ![...changed].some((path) => path.startsWith(`${this.root}${sep}`)))
        return this.last.evidence;
      return this.settle(this.assemble(this.legacy.read()));
    }
    for (const [path, database] of this.databases) {
      if (paths.includes(path)) continue;
      database.close();
      this.databases.delete(path);
      this.snapshots.delete(path);
    }
    const stamps = paths.map((path) => this.stampOf(path));
    const stamp = stamps.join('\n');
    if (this.last === null || this.last.stamp !== stamp) {
      const evidence: SessionEvidence[] = [];
      this.databaseOf.clear();
      let failed = false;
      for (const [index, path] of paths.entries()) {
        const read = await this.snapshotOf(path, stamps[index] ?? '');
        failed ||= read.failed;
        if (read.snapshot === null) continue;
        const sessions = this.assemble(read.snapshot);
        for (const session of sessions) this.databaseOf.set(session.sessionId, path);
        evidence.push(...sessions);
      }
      // A read that failed (locked, mid-replace) is tried again next time even if no file changed.
      // Sessions that did not change keep their objects downstream (the pipeline's SameEvidence).
      this.last = { stamp: failed ? '' : stamp, evidence };
    }
    return this.writersChecked(this.last.evidence);
  }

  /** The database or its -wal changed in the last two seconds (wall clock: file times are). */
  private writtenJustNow(path: string): boolean {
    const newest = Math.max(
      ...['', '-wal'].map((suffix) => {
        try {
          return statSync(`${path}${suffix}`).mtimeMs;
        } catch {
          return 0;
        }
      }),
    );
    return Date.now() - newest < QUIET_MS;
  }

  /** Which database each session was read from, for its writer check. */
  private readonly databaseOf = new Map<string, string>();
  /** Databases found with no writer, by their stamp then: not scanned again until written. */
  private readonly unwritten = new Map<string, string>();

  /**
   * A turn left open in a database no process holds open for writing: the opencode that wrote it
   * is gone (killed mid-turn). Lookout's own connection is read-only, so it never counts. Where
   * there is no /proc, not judged.
   */
  private writersChecked(base: SessionEvidence[]): SessionEvidence[] {
    const asked = new Map<string, boolean>();
    return this.writers.apply(base, (session) => {
      const path = this.databaseOf.get(session.sessionId);
      if (path === undefined) return false;
      let gone = asked.get(path);
      if (gone === undefined) {
        gone = this.noWriter(path);
        asked.set(path, gone);
      }
      return gone;
    });
  }

  /**
   * A database written a moment ago has its writer; one found writerless stays so until it is
   * written again. Only otherwise is every process's descriptors scanned (asked at each rescan).
   */
  private noWriter(path: string): boolean {
    const stamp = this.stampOf(path);
    if (this.unwritten.get(path) === stamp) return true;
    if (this.writtenJustNow(path) || procHolders(path, true)?.length !== 0) {
      this.unwritten.delete(path);
      return false;
    }
    this.unwritten.set(path, stamp);
    return true;
  }

  /** The very same array as last time when no session changed (the runtime then skips work). */
  private settle(evidence: SessionEvidence[]): SessionEvidence[] {
    const before = this.last?.evidence;
    if (before !== undefined && before.length === evidence.length && evidence.every((item, index) => plainEqual(item, before[index]))) return before;
    this.last = { stamp: 'legacy', evidence };
    return evidence;
  }

  dispose(): void {
    for (const database of this.databases.values()) database.close();
    this.databases.clear();
    this.snapshots.clear();
    this.last = null;
  }

  private async snapshotOf(path: string, stamp: string): Promise<{ snapshot: Snapshot | null; failed: boolean }> {
    const cached = this.snapshots.get(path);
    if (cached?.stamp === stamp) return { snapshot: cached.snapshot, failed: false };
    const database = this.databases.get(path) ?? new OpencodeDatabase(path);
    this.databases.set(path, database);
    try {
      const snapshot = await database.read();
      this.snapshots.set(path, { stamp, snapshot });
      return { snapshot, failed: false };
    } catch (error) {
      // Locked, corrupt, replaced mid-read: said once; the last good picture stands meanwhile.
      database.close();
      // SQLite's own words ("database is locked", "file is not a database") say more than its code.
      const message = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
      const code = errorCode(error);
      this.problems.add({ kind: 'unreadable', path, detail: code === undefined || code === null || code.startsWith('ERR_SQLITE') ? message || 'error' : code });
      return { snapshot: cached?.snapshot ?? null, failed: true };
    }
  }

  private assemble(snapshot: Snapshot): SessionEvidence[] {
    const newest = new Map(snapshot.newest.map((row) => [row.sessionId, row]));
    const prompts = new Map(snapshot.newestUser.map((row) => [row.sessionId, row]));
    const partsOf = new Map<string, PartRow[]>();
    for (const part of snapshot.parts) {
      const list = partsOf.get(part.messageId) ?? [];
      list.push(part);
      partsOf.set(part.messageId, list);
    }
    const view = (session: SessionRow) => {
      const message = newest.get(session.id);
      const { parts, skipped } = readParts(message === undefined ? [] : (partsOf.get(message.id) ?? []));
      const signal = signalOf(message, parts);
      const data = message === undefined ? null : messageData(message.data);
      const lastAt = data === null || message === undefined ? session.updated : Math.max(createdAt(data, message.created), signal?.at ?? 0);
      // A newest message that cannot be read is passed over and counted, like a malformed line.
      return { signal, lastAt, turn: turnOf(prompts.get(session.id), signal), skipped: skipped + (message !== undefined && data === null ? 1 : 0) };
    };
    const children = new Map<string, ChildEvidence[]>();
    const childSkips = new Map<string, number>();
    for (const session of snapshot.sessions) {
      if (session.parentId === null) continue;
      const { signal, lastAt, skipped } = view(session);
      const list = children.get(session.parentId) ?? [];
      list.push({
        id: session.id,
        name: session.title ?? session.id,
        role: 'agent',
        source: this.flavor.databaseSource,
        startedAt: session.created,
        lastAt,
        signal,
        request: null,
      });
      children.set(session.parentId, list);
      childSkips.set(session.parentId, (childSkips.get(session.parentId) ?? 0) + skipped);
    }
    return snapshot.sessions
      .filter((session) => session.parentId === null && !session.archived)
      .map((session) => {
        const { signal, lastAt, turn, skipped } = view(session);
        return {
          provider: this.flavor.provider,
          sessionId: session.id,
          title: session.title,
          cwd: session.directory,
          branch: null,
          transcriptSource: this.flavor.databaseSource,
          lastRecordAt: lastAt,
          signal,
          turn,
          direct: [],
          liveness: { kind: 'unreported' },
          children: children.get(session.id) ?? [],
          workingTree: { kind: 'unknown' },
          notices: [],
          skippedLines: skipped + (childSkips.get(session.id) ?? 0),
        };
      });
  }
}
