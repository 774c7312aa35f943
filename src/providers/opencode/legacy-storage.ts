// opencode's JSON storage from before its database (releases before 1.2; observed in 1.1.31):
// storage/session/<projectID>/<sessionID>.json, storage/message/<sessionID>/<messageID>.json,
// storage/part/<messageID>/<partID>.json. The even older per-project layout
// (project/<project>/storage/session/{info/<ses>.json, message/<ses>/<msg>.json,
// part/<ses>/<msg>/<prt>.json}) is read the same way. opencode 1.2 copied this into opencode.db
// once and never deleted it, so it is read only where no database exists (the database is the truth).
// Message ids ascend with time: a session's newest messages are its last file names.
import { join } from 'node:path';
import { listFolder } from '../list-folder';
import type { Problems } from '../problems';
import { fileStamp } from '../system/file-stamp';
import { READ_CAPS, readRegularText } from '../system/safe-read';
import { WholeFiles } from '../system/whole-file';
import type { MessageRow, PartRow, SessionRow, Snapshot } from './database';
import { messageData } from './messages';
import type { JsonRecord } from '../jsonl/parse-record';
import { num, obj, str } from '../jsonl/parse-record';

/** Where one layout keeps each kind of file. */
interface Layout {
  /** Folders holding session files (one level: <projectID>/ or info/). */
  sessionFolders(): string[];
  messages(sessionId: string): string;
  parts(sessionId: string, messageId: string): string;
}

/** How far back a session's messages are read for its newest prompt (a turn of many steps). */
const PROMPT_SEARCH = 200;

function layouts(root: string, problems: Problems): Layout[] {
  const storage = join(root, 'storage');
  const found: Layout[] = [];
  const sessionRoot = join(storage, 'session');
  const projects = listFolder(sessionRoot, problems).filter((entry) => entry.isDirectory());
  if (projects.length > 0) {
    found.push({
      sessionFolders: () => projects.map((entry) => join(sessionRoot, entry.name)),
      messages: (sessionId) => join(storage, 'message', sessionId),
      parts: (_sessionId, messageId) => join(storage, 'part', messageId),
    });
  }
  for (const project of listFolder(join(root, 'project'), problems).filter((entry) => entry.isDirectory())) {
    const base = join(root, 'project', project.name, 'storage', 'session');
    if (listFolder(join(base, 'info'), problems).length === 0) continue;
    found.push({
      sessionFolders: () => [join(base, 'info')],
      messages: (sessionId) => join(base, 'message', sessionId),
      parts: (sessionId, messageId) => join(base, 'part', sessionId, messageId),
    });
  }
  return found;
}

interface Cached {
  stamp: string;
  /** The newest message is still open: its tool parts change without its file changing. */
  open: boolean;
  newest: MessageRow | undefined;
  newestUser: MessageRow | undefined;
  parts: PartRow[];
}

/** A session file's row; null when it is not one. */
function sessionRow(info: JsonRecord | null): SessionRow | null {
  const id = str(info?.id);
  if (info === null || id === null) return null;
  const time = obj(info.time);
  return {
    id,
    parentId: str(info.parentID),
    directory: str(info.directory),
    title: str(info.title),
    created: num(time?.created) ?? 0,
    updated: num(time?.updated) ?? num(time?.created) ?? 0,
    archived: num(time?.archived) !== null,
  };
}

/** A file's stamp, or "-" when it cannot be seen: what tells an unchanged file without reading it. */
function stampOrDash(path: string): string {
  return fileStamp(path) ?? '-';
}

export class LegacyStorage {
  private readonly sessions = new Map<string, Cached>();
  /** Session files as last read, by path: an unchanged one is not read again. */
  private readonly infos = new WholeFiles<SessionRow | null>({
    cap: READ_CAPS.smallJson,
    parse: (text) => ({ value: sessionRow(messageData(text)) }),
    unreadable: (error, path) => {
      this.problems.unreadableUnlessGone(path, error);
      return { value: null };
    },
  });

  constructor(
    private readonly root: string,
    private readonly problems: Problems,
  ) {}

  private readJson(path: string): JsonRecord | null {
    try {
      return messageData(readRegularText(path, READ_CAPS.smallJson));
    } catch (error) {
      this.problems.unreadableUnlessGone(path, error);
      return null;
    }
  }

  /** A session's message files, oldest first, and a stamp that changes when any of the newest does. */
  private messageFiles(folder: string): { names: string[]; stamp: string } {
    const names = listFolder(folder, this.problems)
      .filter((entry) => entry.isFile() && entry.name.endsWith('.json'))
      .map((entry) => entry.name)
      .sort();
    const last = names.at(-1);
    return { names, stamp: last === undefined ? '0' : `${names.length}:${last}:${stampOrDash(join(folder, last))}` };
  }

  private row(path: string, sessionId: string, data: JsonRecord): MessageRow {
    const id = str(data.id) ?? path;
    return { id, sessionId, created: num(obj(data.time)?.created) ?? 0, data: JSON.stringify(data) };
  }

  /** The newest message, the newest prompt, and the parts of the newest message while it is open. */
  private readSession(layout: Layout, sessionId: string, folder: string, names: readonly string[], stamp: string): Cached {
    let newest: MessageRow | undefined;
    let newestUser: MessageRow | undefined;
    for (let index = names.length - 1; index >= Math.max(0, names.length - PROMPT_SEARCH) && newestUser === undefined; index -= 1) {
      const path = join(folder, names[index] ?? '');
      const data = this.readJson(path);
      if (data === null) continue;
      const row = this.row(path, sessionId, data);
      newest ??= row;
      if (data.role === 'user') newestUser = row;
    }
    const parts: PartRow[] = [];
    const data = newest === undefined ? null : messageData(newest.data);
    const open = data !== null && data.role === 'assistant' && num(obj(data.time)?.completed) === null;
    let partsStamp = '';
    if (newest !== undefined && open) {
      const partFolder = layout.parts(sessionId, newest.id);
      // Stamped before it is read: a part changed meanwhile is read again next time, never missed.
      partsStamp = this.partsStamp(partFolder);
      for (const name of this.partFiles(partFolder)) {
        const part = this.readJson(join(partFolder, name));
        if (part !== null) parts.push({ messageId: newest.id, data: JSON.stringify(part) });
      }
    }
    return { stamp: open ? `${stamp}|${partsStamp}` : stamp, open, newest, newestUser, parts };
  }

  private partFiles(folder: string): string[] {
    return listFolder(folder, this.problems)
      .filter((entry) => entry.isFile() && entry.name.endsWith('.json'))
      .map((entry) => entry.name)
      .sort();
  }

  /** An open message's parts change in place (a tool's state): their names, sizes and times. */
  private partsStamp(folder: string): string {
    return this.partFiles(folder)
      .map((name) => `${name}:${stampOrDash(join(folder, name))}`)
      .join(',');
  }

  /** A session file's row, read again only when its stamp changed. */
  private session(path: string): SessionRow | null {
    const found = this.infos.read(path);
    return found.kind === 'read' ? found.value : null;
  }

  /** Everything the provider needs, as the database reader gives it; unchanged sessions are not read again. */
  read(): Snapshot {
    const snapshot: Snapshot = { sessions: [], newest: [], newestUser: [], parts: [] };
    const seen = new Set<string>();
    const seenFiles = new Set<string>();
    for (const layout of layouts(this.root, this.problems)) {
      for (const folder of layout.sessionFolders()) {
        for (const entry of listFolder(folder, this.problems)) {
          if (!entry.isFile() || !entry.name.endsWith('.json')) continue;
          const path = join(folder, entry.name);
          seenFiles.add(path);
          const session = this.session(path);
          if (session === null || seen.has(session.id)) continue;
          seen.add(session.id);
          snapshot.sessions.push(session);
          const messages = layout.messages(session.id);
          const { names, stamp } = this.messageFiles(messages);
          const cached = this.sessions.get(session.id);
          // An open message's parts are in its stamp: a session is read again only when something in it changed.
          const current =
            cached?.open === true && cached.newest !== undefined ? `${stamp}|${this.partsStamp(layout.parts(session.id, cached.newest.id))}` : stamp;
          const read = cached !== undefined && cached.stamp === current ? cached : this.readSession(layout, session.id, messages, names, stamp);
          this.sessions.set(session.id, read);
          if (read.newest !== undefined) snapshot.newest.push(read.newest);
          if (read.newestUser !== undefined) snapshot.newestUser.push(read.newestUser);
          snapshot.parts.push(...read.parts);
        }
      }
    }
    this.infos.keep(seenFiles);
    for (const id of this.sessions.keys()) if (!seen.has(id)) this.sessions.delete(id);
    return snapshot;
  }
}
