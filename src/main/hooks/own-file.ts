// Files of Lookout's own in an agent's folders (a plugin, a hooks file the agent merges): written
// whole, never over a file that is not Lookout's, removed with the folders made for them.
import { existsSync, mkdirSync, readdirSync, rmSync, rmdirSync } from 'node:fs';
import { dirname, sep } from 'node:path';
import type { HookEdit } from '../../providers';
import { errorCode } from '../../providers/problems';
import type { InstallRecord } from './install-record';
import { readText, saveRecord, sha, writeAtomic } from './install-record';
import { HooksFileError } from './json-hooks';

type OwnFile = Extract<HookEdit, { kind: 'own-file' }>;

/** The mark every file of Lookout's own carries (a record lost with LOOKOUT_HOME still finds it). */
export const OWN_FILE_MARK = 'written by `lookout hooks install`';

/** Whether a file at that path is Lookout's: what it last wrote there, or a file with its mark. */
function ownFileIsOurs(record: InstallRecord, path: string, text: string): boolean {
  const entry = record.files[path];
  return (entry !== undefined && entry.before === null && sha(text) === entry.after) || text.includes(OWN_FILE_MARK);
}

/** Makes the missing folders above a file; returns those it made, deepest last. */
function makeFolders(home: string, path: string): string[] {
  const made: string[] = [];
  for (let folder = dirname(path); !existsSync(folder) && dirname(folder) !== folder; folder = dirname(folder)) made.unshift(folder);
  // Lookout's home and what is in it stay private (issue 47 item 4); an agent's folders get the usual mode.
  for (const folder of made) mkdirSync(folder, { mode: folder === home || folder.startsWith(home + sep) ? 0o700 : 0o755 });
  return made;
}

export function installOwnFile(home: string, record: InstallRecord, edit: OwnFile): string {
  const current = readText(edit.path);
  if (current === edit.text) return `${edit.path}: ${edit.what} already installed`;
  if (current !== null && !ownFileIsOurs(record, edit.path, current))
    return `${edit.path}: a file that is not Lookout's is there; left alone (no ${edit.what})`;
  const made = current === null ? makeFolders(home, edit.path) : [];
  if (made.length > 0) record.folders[edit.path] = made;
  // Written whole: nothing of the user's is in it, so there is nothing to back up or restore.
  record.files[edit.path] = { before: null, after: sha(edit.text) };
  try {
    writeAtomic(edit.path, edit.text);
  } catch (error) {
    delete record.files[edit.path];
    throw new HooksFileError(
      `${edit.path} could not be written (${errorCode(error) ?? String(error)}); the files changed before it are recorded and uninstall takes them out`,
    );
  } finally {
    saveRecord(home, record);
  }
  return `${edit.path}: ${edit.what} ${current === null ? 'installed' : 'updated'}`;
}

export function uninstallOwnFile(record: InstallRecord, edit: OwnFile): string {
  const current = readText(edit.path);
  const entry = record.files[edit.path];
  const folders = record.folders[edit.path] ?? [];
  delete record.folders[edit.path];
  delete record.files[edit.path];
  if (current === null) return `${edit.path}: not there; nothing to remove`;
  const untouched =
    (entry !== undefined && sha(current) === entry.after) || (entry === undefined && (current === edit.text || current.includes(OWN_FILE_MARK)));
  if (!untouched) return `${edit.path}: changed since Lookout wrote it; left in place (delete it yourself if you no longer want it)`;
  rmSync(edit.path);
  // The folders Lookout made for it go too, if nothing else was put in them since.
  for (const folder of [...folders].reverse()) {
    try {
      if (readdirSync(folder).length === 0) rmdirSync(folder);
    } catch {
      // Gone already, or not ours to remove: left.
    }
  }
  return `${edit.path}: removed${folders.length > 0 ? ' (with the folders made for it)' : ''}`;
}

export function ownFileStatus(record: InstallRecord, edit: OwnFile): string {
  let current: string | null;
  try {
    current = readText(edit.path);
  } catch (error) {
    return `unknown in ${edit.path} (${error instanceof Error ? error.message : String(error)})`;
  }
  if (current === null) return `not installed (${edit.what}: ${edit.path})`;
  if (current === edit.text) return `installed (${edit.what}: ${edit.path})`;
  return ownFileIsOurs(record, edit.path, current)
    ? `installed, out of date: install again to update (${edit.path})`
    : `not installed (${edit.path} is not Lookout's)`;
}
