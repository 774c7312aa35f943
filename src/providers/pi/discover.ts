// Finds Pi's sessions: sessions/--<folder with / as ->--/<time>_<uuid>.jsonl, or files lying
// straight in a session folder of the person's choosing (PI_CODING_AGENT_SESSION_DIR, --session-dir).
import { sep } from 'node:path';
import { listFolder } from '../list-folder';
import type { Problems } from '../problems';

export interface PiSessionFiles {
  /** The session's uuid, from the file's name (the header's id says the same). */
  id: string;
  path: string;
}

/** `2026-12-05T05-25-49-002Z_<uuid>.jsonl`; a name without the time still names its session. */
const SESSION_FILE = /^(?:[^_]*_)?([^._][^.]*)\.jsonl$/;

function sessionsIn(folder: string, problems: Problems, found: PiSessionFiles[]): void {
  for (const entry of listFolder(folder, problems)) {
    const id = SESSION_FILE.exec(entry.name)?.[1];
    if (entry.isFile() && id !== undefined) found.push({ id, path: `${folder}${sep}${entry.name}` });
  }
}

export function discoverPi(sessions: string, problems: Problems): PiSessionFiles[] {
  const found: PiSessionFiles[] = [];
  sessionsIn(sessions, problems, found);
  // Symlinked folders are not followed (Dirent.isDirectory is false for links): no loops.
  for (const entry of listFolder(sessions, problems)) if (entry.isDirectory()) sessionsIn(`${sessions}${sep}${entry.name}`, problems, found);
  return found;
}
