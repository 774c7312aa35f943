// Lookout's own state is private: its folders 0700, its files 0600 (the store, settings, the
// spool of prompts and tool inputs, hook backups that may copy a settings file's API keys). Files
// of the user's that Lookout edits keep their own mode and owner (`writeKeepingMode`).
import { chmodSync, chownSync, closeSync, fsyncSync, mkdirSync, openSync, realpathSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

export const PRIVATE_FOLDER = 0o700;
export const PRIVATE_FILE = 0o600;

/** Creates the folder (and its parents) private; an existing one of Lookout's is made private too. */
export function privateFolder(path: string): void {
  mkdirSync(path, { recursive: true, mode: PRIVATE_FOLDER });
  try {
    chmodSync(path, PRIVATE_FOLDER);
  } catch {
    // Not ours to change (another owner): it stays as it is.
  }
}

/** Writes a temp file beside the target with `mode`, synced, then renames it over the target. */
function writeThenRename(target: string, data: string | Buffer, mode: number, owner?: { uid: number; gid: number }): void {
  const temp = `${target}.lookout-${process.pid}.tmp`;
  const fd = openSync(temp, 'w', mode);
  try {
    writeSync(fd, typeof data === 'string' ? Buffer.from(data) : data);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    // The mode asked for, whatever the umask made of it; the owner where one is to be kept.
    chmodSync(temp, mode);
    if (owner !== undefined) {
      try {
        chownSync(temp, owner.uid, owner.gid);
      } catch {
        // Only root may give a file away; a user's own file already has the user as owner.
      }
    }
    renameSync(temp, target);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/** A file of Lookout's own, written atomically, 0600, in a private folder. */
export function writePrivate(path: string, data: string | Buffer): void {
  privateFolder(dirname(path));
  writeThenRename(path, data, PRIVATE_FILE);
}

/**
 * A file of the user's, written atomically through a symlink (dotfiles often link settings
 * files) with the mode and owner it had; a new one is created 0600.
 */
export function writeKeepingMode(path: string, data: string | Buffer): void {
  let target = path;
  try {
    target = realpathSync(path);
  } catch {
    mkdirSync(dirname(path), { recursive: true });
  }
  let mode = PRIVATE_FILE;
  let owner: { uid: number; gid: number } | undefined;
  try {
    const info = statSync(target);
    mode = info.mode & 0o7777;
    owner = { uid: info.uid, gid: info.gid };
  } catch {
    // A new file: private.
  }
  writeThenRename(target, data, mode, owner);
}
