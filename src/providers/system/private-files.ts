// Lookout's own state is private: its folders 0700, its files 0600 (the store, settings, the
// spool of prompts and tool inputs, hook backups that may copy a settings file's API keys). Files
// of the user's that Lookout edits keep their own mode and owner (`writeKeepingMode`).
import {
  chmodSync,
  chownSync,
  closeSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { dirname, resolve } from 'node:path';

const PRIVATE_FOLDER = 0o700;
const PRIVATE_FILE = 0o600;

/** Creates the folder (and its parents) private; an existing one of Lookout's is made private too. */
export function privateFolder(path: string): void {
  mkdirSync(path, { recursive: true, mode: PRIVATE_FOLDER });
  try {
    chmodSync(path, PRIVATE_FOLDER);
  } catch {
    // Not ours to change (another owner): it stays as it is.
  }
}

/** The temp file a write of `target` goes through: beside it, named for the writing process. */
export function tempPathOf(target: string, pid: number = process.pid): string {
  return `${target}.lookout-${pid}.tmp`;
}

/** What a temp file's name says (the file it was to become, the process writing it); null for any other name. */
export function tempOwner(name: string): { target: string; pid: number } | null {
  const match = /^(.+)\.lookout-([1-9][0-9]{0,9})\.tmp$/.exec(name);
  return match === null ? null : { target: match[1] ?? '', pid: Number(match[2]) };
}

/**
 * What a file is written from: its text, its bytes, or its bytes in pieces (each written before
 * the next is asked for, so a piece may be a view of one reused buffer: a big file then never
 * needs its whole text and bytes in fresh memory at once).
 */
export type FileContent = string | Buffer | Iterable<Uint8Array>;

/** Writes all of `bytes` (a write may take fewer than asked; one that takes none would never end). */
function writeAll(fd: number, bytes: Uint8Array): void {
  for (let done = 0; done < bytes.length; ) {
    const wrote = writeSync(fd, bytes, done, bytes.length - done);
    if (wrote <= 0) throw Object.assign(new Error('a write took no bytes'), { code: 'EIO' });
    done += wrote;
  }
}

/** Writes a temp file beside the target with `mode`, synced, then renames it over the target. */
function writeThenRename(target: string, data: FileContent, mode: number, owner?: { uid: number; gid: number }): void {
  const temp = tempPathOf(target);
  // A new file, never one already there (nor a symlink someone left at this name).
  rmSync(temp, { force: true });
  const fd = openSync(temp, 'wx', mode);
  try {
    if (typeof data === 'string') writeAll(fd, Buffer.from(data));
    else if (Buffer.isBuffer(data)) writeAll(fd, data);
    else for (const piece of data) writeAll(fd, piece);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    // The owner where one is to be kept (first: a chown clears set-id bits), then the mode asked
    // for, whatever the umask made of it.
    if (owner !== undefined) chownSync(temp, owner.uid, owner.gid);
    chmodSync(temp, mode);
    renameSync(temp, target);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/** A file of Lookout's own, written atomically, 0600, in a private folder. */
export function writePrivate(path: string, data: FileContent): void {
  privateFolder(dirname(path));
  writeThenRename(path, data, PRIVATE_FILE);
}

/** A program of Lookout's own (the autostart launcher): atomic, and 0700 from the first moment it is seen. */
export function writePrivateProgram(path: string, text: string): void {
  privateFolder(dirname(path));
  writeThenRename(path, text, PRIVATE_FOLDER);
}

/**
 * A file of the user's, written atomically through a symlink (dotfiles often link settings
 * files) with the mode and owner it had; a new one is created 0600.
 */
export function writeKeepingMode(path: string, data: string | Buffer): void {
  const target = linkTarget(path);
  mkdirSync(dirname(target), { recursive: true });
  let mode = PRIVATE_FILE;
  let owner: { uid: number; gid: number } | undefined;
  try {
    const info = statSync(target);
    mode = info.mode & 0o7777;
    owner = { uid: info.uid, gid: info.gid };
  } catch {
    // A new file: private, and ours.
  }
  // Only root can give a file back to another owner: anyone else refuses rather than take it over.
  const uid = process.getuid?.();
  if (owner !== undefined && uid !== undefined && uid !== 0 && owner.uid !== uid) {
    throw Object.assign(new Error(`${target} belongs to another user; Lookout leaves it alone`), { code: 'EPERM' });
  }
  writeThenRename(target, data, mode, owner);
}

/** Where a write through `path` lands: the file a symlink (even a dangling one) points to. */
function linkTarget(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    // Dangling or missing: a link is followed by hand (the link stays a link), else the path itself.
    try {
      if (lstatSync(path).isSymbolicLink()) return resolve(dirname(path), readlinkSync(path));
    } catch {
      // Nothing there: a new file.
    }
    return path;
  }
}
