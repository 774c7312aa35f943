// The checks both ends of the answer channel make before trusting a path: Lookout's run folder
// is a real folder of this user's, private; the socket a real socket of this user's (never a
// symlink); the token a small private regular file of this user's.
import type { Stats } from 'node:fs';
import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { errorCode } from '../problems';

const uid = (): number | null => (typeof process.getuid === 'function' ? process.getuid() : null);

/** Owned by this process's user (where the system has users). */
function ours(info: Stats): boolean {
  const me = uid();
  return me === null || info.uid === me;
}

/** Why the run folder cannot be trusted, or null. */
export function folderProblem(path: string): string | null {
  try {
    const info = lstatSync(path);
    if (info.isSymbolicLink()) return `${path} is a symlink`;
    if (!info.isDirectory()) return `${path} is not a folder`;
    if (!ours(info)) return `${path} belongs to another user`;
    if ((info.mode & 0o077) !== 0) return `${path} is open to other users (mode ${(info.mode & 0o777).toString(8)})`;
    return null;
  } catch (error) {
    return `${path} cannot be read (${errorCode(error) ?? String(error)})`;
  }
}

/** What is at the socket's path: nothing, this user's socket, or something not to be touched. */
export function socketAt(path: string): { kind: 'none' } | { kind: 'socket' } | { kind: 'bad'; why: string } {
  let info: Stats;
  try {
    info = lstatSync(path);
  } catch (error) {
    return errorCode(error) === 'ENOENT' ? { kind: 'none' } : { kind: 'bad', why: `${path} cannot be read (${errorCode(error) ?? String(error)})` };
  }
  if (info.isSymbolicLink()) return { kind: 'bad', why: `${path} is a symlink, not Lookout's socket` };
  if (!info.isSocket()) return { kind: 'bad', why: `${path} is not a socket` };
  if (!ours(info)) return { kind: 'bad', why: `${path} belongs to another user` };
  return { kind: 'socket' };
}

const TOKEN_BYTES = 64;

/** The token, when the file is a private regular file of this user's holding one; else null. */
export function readToken(path: string): string | null {
  let fd: number;
  try {
    // Never a blocking open (a FIFO planted there), never through a symlink.
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch {
    return null;
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile() || !ours(info) || (info.mode & 0o077) !== 0 || info.size > TOKEN_BYTES + 2) return null;
    const buffer = Buffer.alloc(TOKEN_BYTES + 2);
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    const token = buffer.subarray(0, read).toString('utf8').trim();
    return /^[0-9a-f]{64}$/.test(token) ? token : null;
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/**
 * Whether a process runs as this user (Linux: its /proc status). The kernel's guarantee is the
 * private folder around the socket; this checks the pid a client names is not another user's.
 */
export function processIsOurs(pid: number): boolean {
  const me = uid();
  if (me === null || process.platform !== 'linux') return true;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const line = /^Uid:\s+(\d+)/m.exec(status);
    return line !== null && Number(line[1]) === me;
  } catch {
    return false;
  }
}
