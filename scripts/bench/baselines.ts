// The baselines the status read is compared with, run as their own processes.
import { closeSync, openSync, readSync, readFileSync, fstatSync } from 'node:fs';

/** Reads the last 64 KB of every file: the least any status reader must do. */
export function readTails(files: readonly string[]): number {
  const buffer = Buffer.allocUnsafe(64 * 1024);
  let total = 0;
  for (const file of files) {
    const fd = openSync(file, 'r');
    const size = fstatSync(fd).size;
    total += readSync(fd, buffer, 0, buffer.length, Math.max(0, size - buffer.length));
    closeSync(fd);
  }
  return total;
}

/** Reads every file whole, in 1 MB chunks (for scale). */
export function readWhole(files: readonly string[]): number {
  const buffer = Buffer.allocUnsafe(1024 * 1024);
  let total = 0;
  for (const file of files) {
    const fd = openSync(file, 'r');
    for (;;) {
      const read = readSync(fd, buffer, 0, buffer.length, null);
      if (read === 0) break;
      total += read;
    }
    closeSync(fd);
  }
  return total;
}

export function runBaseline(mode: string, listFile: string): void {
  const files = readFileSync(listFile, 'utf8').split('\n').filter((line) => line !== '');
  const bytes = mode === 'tail' ? readTails(files) : readWhole(files);
  process.stdout.write(`${bytes}\n`);
}
