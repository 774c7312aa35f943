// Finds Factory Droid's sessions: sessions/<cwd with / as ->/<uuid>.jsonl, each beside its
// <uuid>.settings.json (model, autonomy, tags). Files lying straight in sessions/ are read too.
import { join, sep } from 'node:path';
import { listFolder } from '../list-folder';
import type { Problems } from '../problems';

export interface DroidSessionFiles {
  /** The file's stem: the session's uuid. */
  id: string;
  transcript: string;
  /** `<uuid>.settings.json` beside it, whether or not it is there yet. */
  settings: string;
}

const TRANSCRIPT = /^([^.]+)\.jsonl$/;

function sessionsIn(folder: string, problems: Problems, found: DroidSessionFiles[]): void {
  for (const entry of listFolder(folder, problems)) {
    const id = TRANSCRIPT.exec(entry.name)?.[1];
    if (!entry.isFile() || id === undefined) continue;
    found.push({ id, transcript: `${folder}${sep}${entry.name}`, settings: `${folder}${sep}${id}.settings.json` });
  }
}

export function discoverDroid(root: string, problems: Problems): DroidSessionFiles[] {
  const sessions = join(root, 'sessions');
  const found: DroidSessionFiles[] = [];
  sessionsIn(sessions, problems, found);
  // Symlinked folders are not followed (Dirent.isDirectory is false for links): no loops.
  for (const entry of listFolder(sessions, problems)) if (entry.isDirectory()) sessionsIn(`${sessions}${sep}${entry.name}`, problems, found);
  return found;
}
