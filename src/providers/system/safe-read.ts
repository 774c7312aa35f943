// Every file Lookout reads from an agent's folder is checked first: opened without blocking (a
// FIFO would wait for a writer forever), a regular file (not a device, FIFO or socket, even
// behind a symlink), and no larger than what its kind can need. One helper for every reader.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

/** Size caps by kind of file: generous for what the agents write, small beside a machine's memory. */
export const READ_CAPS = {
  /** A registry entry, a subagent's .meta.json: a few hundred bytes in practice. */
  smallJson: 1024 * 1024,
  /** An agent's settings or hooks file, a TOML config. */
  config: 4 * 1024 * 1024,
  /** A compressed rollout, read whole before it is inflated (the inflated size is capped too). */
  compressed: 64 * 1024 * 1024,
} as const;

/** An error with Node's shape (`code`), so callers report it like any other read failure. */
function refusal(path: string, code: 'ENOTREG' | 'EISDIR' | 'EFBIG', why: string): Error {
  return Object.assign(new Error(`${path}: ${why}`), { code });
}

/**
 * Opens a regular file for reading, never blocking; throws ENOTREG for anything else. The
 * caller closes the descriptor.
 */
export function openRegular(path: string): { fd: number; size: number; ino: number; dev: number; mtimeMs: number } {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) throw refusal(path, 'EISDIR', 'a folder, not a file');
    if (!stat.isFile()) throw refusal(path, 'ENOTREG', 'not a regular file');
    return { fd, size: stat.size, ino: stat.ino, dev: stat.dev, mtimeMs: stat.mtimeMs };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/** Reads a whole regular file of at most `cap` bytes; throws ENOTREG or EFBIG otherwise. */
export function readRegularFile(path: string, cap: number): Buffer {
  const { fd, size } = openRegular(path);
  try {
    if (size > cap) throw refusal(path, 'EFBIG', `larger than ${cap} bytes`);
    // Reads until the end, at most cap + 1 bytes: a file that grew past the cap since fstat is refused.
    let buffer = Buffer.allocUnsafe(Math.min(cap + 1, size + 1));
    let filled = 0;
    for (;;) {
      if (filled === buffer.length) {
        if (filled > cap) throw refusal(path, 'EFBIG', `larger than ${cap} bytes`);
        const bigger = Buffer.allocUnsafe(Math.min(cap + 1, buffer.length * 2));
        buffer.copy(bigger, 0, 0, filled);
        buffer = bigger;
      }
      const read = readSync(fd, buffer, filled, buffer.length - filled, filled);
      if (read === 0) break;
      filled += read;
    }
    if (filled > cap) throw refusal(path, 'EFBIG', `larger than ${cap} bytes`);
    return buffer.subarray(0, filled);
  } finally {
    closeSync(fd);
  }
}

/** The same, decoded as UTF-8. */
export function readRegularText(path: string, cap: number): string {
  return readRegularFile(path, cap).toString('utf8');
}

/**
 * At most the first `cap` bytes of a regular file, decoded as UTF-8; when the file goes on past
 * them, cut after the last whole line (so no line or character is read in part).
 */
export function readRegularHead(path: string, cap: number): string {
  const { fd } = openRegular(path);
  try {
    // One byte past the cap tells a file that goes on from one that ends there.
    const buffer = Buffer.allocUnsafe(cap + 1);
    let filled = 0;
    while (filled < buffer.length) {
      const read = readSync(fd, buffer, filled, buffer.length - filled, filled);
      if (read === 0) break;
      filled += read;
    }
    if (filled <= cap) return buffer.toString('utf8', 0, filled);
    return buffer.toString('utf8', 0, buffer.lastIndexOf(0x0a, cap - 1) + 1);
  } finally {
    closeSync(fd);
  }
}
