// What `hooks install` remembers (LOOKOUT_HOME/hooks/installed.json): each file's bytes before
// Lookout touched it and a hash of what it wrote, so uninstall restores them exactly; and how the
// agents' files are read and written for it.
import { createHash } from 'node:crypto';
import { lstatSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeKeepingMode, writePrivate } from '../../providers/system/private-files';
import { errorCode } from '../../providers/problems';
import { READ_CAPS, readRegularText } from '../../providers/system/safe-read';
import { HooksFileError } from './json-hooks';

interface FileRecord {
  /** The file's bytes before Lookout touched it (base64), or null when it did not exist. */
  before: string | null;
  /** The hash of what Lookout wrote: if the file is still exactly that, uninstall restores `before`. */
  after: string;
}

export interface InstallRecord {
  files: Record<string, FileRecord>;
  /** The notify line written, by config file (so uninstall finds it even if the shim moved). */
  notifyLines: Record<string, string>;
  /** Folders Lookout made for a file of its own: removed again with it when empty. */
  folders: Record<string, string[]>;
}

export const sha = (text: string): string => createHash('sha256').update(text).digest('hex');
const recordPath = (home: string): string => join(home, 'hooks', 'installed.json');

export function readRecord(home: string): InstallRecord {
  try {
    const parsed = JSON.parse(readFileSync(recordPath(home), 'utf8')) as Partial<InstallRecord> & { notifyLine?: string | null };
    return { files: parsed.files ?? {}, notifyLines: parsed.notifyLines ?? {}, folders: parsed.folders ?? {} };
  } catch {
    return { files: {}, notifyLines: {}, folders: {} };
  }
}

/** A user's file: written atomically through a symlink, keeping its mode and owner (private-files.ts). */
export const writeAtomic = writeKeepingMode;

/** Removes a file Lookout created; a symlink's target is emptied rather than the link broken. */
export function removeCreated(path: string): void {
  if (lstatSync(path).isSymbolicLink()) writeAtomic(path, '');
  else rmSync(path);
}

/** A file's text; null when it does not exist. One that cannot be read refuses the change. */
export function readText(path: string): string | null {
  try {
    return readRegularText(path, READ_CAPS.config);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    throw new HooksFileError(`${path} cannot be read (${errorCode(error) ?? String(error)}); Lookout changed nothing`);
  }
}

export function saveRecord(home: string, record: InstallRecord): void {
  writePrivate(recordPath(home), `${JSON.stringify(record, null, 2)}\n`);
}
