// Finds GitHub Copilot CLI's sessions: session-state/<id>/events.jsonl (with workspace.yaml and
// inuse.<pid>.lock beside it) and the older flat session-state/<id>.jsonl.
import { join, sep } from 'node:path';
import { listFolder } from '../list-folder';
import type { Problems } from '../problems';

export interface CopilotSessionFiles {
  /** The session's folder name (its id) or the flat file's stem. */
  id: string;
  events: string;
  /** workspace.yaml, for the current layout. */
  workspace: string | null;
  /** inuse.<pid>.lock files: the processes holding the session. */
  locks: { path: string; pid: number }[];
}

const LOCK = /^inuse\.(\d+)\.lock$/;

export function discoverCopilot(root: string, problems: Problems): CopilotSessionFiles[] {
  const folder = join(root, 'session-state');
  const found: CopilotSessionFiles[] = [];
  // Symlinked folders are not followed (Dirent.isDirectory is false for links): no loops.
  for (const entry of listFolder(folder, problems)) {
    const path = `${folder}${sep}${entry.name}`;
    if (entry.isFile() && entry.name.endsWith('.jsonl')) {
      found.push({ id: entry.name.slice(0, -'.jsonl'.length), events: path, workspace: null, locks: [] });
      continue;
    }
    if (!entry.isDirectory()) continue;
    const inside = listFolder(path, problems);
    if (!inside.some((item) => item.isFile() && item.name === 'events.jsonl')) continue;
    const locks = inside.flatMap((item) => {
      const pid = LOCK.exec(item.name)?.[1];
      return item.isFile() && pid !== undefined ? [{ path: `${path}${sep}${item.name}`, pid: Number(pid) }] : [];
    });
    const workspace = inside.some((item) => item.isFile() && item.name === 'workspace.yaml') ? `${path}${sep}workspace.yaml` : null;
    found.push({ id: entry.name, events: `${path}${sep}events.jsonl`, workspace, locks });
  }
  return found;
}
