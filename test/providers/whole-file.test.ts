// Issue 48: one file stamp and one whole-file reader under every provider and the answer room
// (src/providers/system/file-stamp.ts, whole-file.ts).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, renameSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fileStamp } from '../../src/providers/system/file-stamp';
import type { Settled } from '../../src/providers/system/whole-file';
import { WholeFiles } from '../../src/providers/system/whole-file';

const base = mkdtempSync(join(tmpdir(), 'lookout-whole-file-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
let n = 0;
function path(): string {
  n += 1;
  return join(base, `file-${n}.json`);
}
const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
/** Longer than one tick of any file system clock Linux or macOS keeps. */
const TICK = 60;

/** A reader of `{ "n": … }` that counts its reads and keeps what each outcome gave. */
function counted(again = false): { files: WholeFiles<number | null>; reads: () => number; errors: unknown[] } {
  let reads = 0;
  const errors: unknown[] = [];
  const files = new WholeFiles<number | null>({
    cap: 64,
    parse: (text): Settled<number | null> => {
      reads += 1;
      try {
        return { value: (JSON.parse(text) as { n: number }).n };
      } catch {
        return { value: null, again };
      }
    },
    unreadable: (error) => {
      errors.push(error);
      return { value: null };
    },
  });
  return { files, reads: () => reads, errors };
}

function readValue(read: ReturnType<WholeFiles<number | null>['read']>): number | null | 'gone' {
  return read.kind === 'read' ? read.value : 'gone';
}

describe('issue 48: fileStamp', () => {
  it('is null for a file not there', () => {
    expect(fileStamp(join(base, 'nothing'))).toBeNull();
  });

  it('tells a same-size rewrite in place whose time was set back to the same second', async () => {
    const file = path();
    writeFileSync(file, '{"n":1}');
    utimesSync(file, 1_700_000_000, 1_700_000_000);
    const before = fileStamp(file);
    await pause(TICK);
    writeFileSync(file, '{"n":2}');
    utimesSync(file, 1_700_000_000, 1_700_000_000);
    expect(statSync(file).mtimeMs).toBe(1_700_000_000_000);
    // Same inode, size and mtime: only the change time (which no one can set) tells them apart.
    expect(fileStamp(file)).not.toBe(before);
  });

  it('tells a file replaced by another of the same size and time (a rename over it)', () => {
    const file = path();
    writeFileSync(file, '{"n":1}');
    utimesSync(file, 1_700_000_000, 1_700_000_000);
    const before = fileStamp(file);
    writeFileSync(`${file}.tmp`, '{"n":2}');
    utimesSync(`${file}.tmp`, 1_700_000_000, 1_700_000_000);
    renameSync(`${file}.tmp`, file);
    expect(fileStamp(file)).not.toBe(before);
  });

  it('is the same while nothing touched the file, and a link is stamped as itself only when asked', () => {
    const file = path();
    writeFileSync(file, '{"n":1}');
    const link = `${file}.link`;
    symlinkSync(file, link);
    expect(fileStamp(file)).toBe(fileStamp(file));
    expect(fileStamp(link)).toBe(fileStamp(file));
    expect(fileStamp(link, 'own')).not.toBe(fileStamp(file));
  });
});

describe('issue 48: WholeFiles', () => {
  it('reads a file once per stamp, again after a same-size rewrite, and forgets it once gone', async () => {
    const file = path();
    const { files, reads } = counted();
    writeFileSync(file, '{"n":1}');
    expect(readValue(files.read(file))).toBe(1);
    expect(files.read(file)).toMatchObject({ kind: 'read', value: 1, fresh: false });
    expect(reads()).toBe(1);
    await pause(TICK);
    writeFileSync(file, '{"n":2}');
    expect(readValue(files.read(file))).toBe(2);
    expect(reads()).toBe(2);
    rmSync(file);
    expect(files.read(file)).toMatchObject({ kind: 'gone', error: { code: 'ENOENT' } });
    writeFileSync(file, '{"n":3}');
    expect(readValue(files.read(file))).toBe(3);
  });

  it('keeps a corrupt reading until the file changes, or reads it again when the caller says so', () => {
    const file = path();
    writeFileSync(file, '{"n":');
    const kept = counted(false);
    expect(readValue(kept.files.read(file))).toBeNull();
    expect(readValue(kept.files.read(file))).toBeNull();
    expect(kept.reads()).toBe(1);
    const retried = counted(true);
    expect(retried.files.read(file)).toMatchObject({ value: null, again: true, fresh: true });
    expect(retried.files.read(file)).toMatchObject({ value: null, again: true, fresh: true });
    expect(retried.reads()).toBe(2);
  });

  it('reads through the safe reader: over the cap, or not a regular file, is unreadable, never a hang', () => {
    const { files, errors } = counted();
    const big = path();
    writeFileSync(big, `{"n":${'1'.repeat(100)}}`);
    expect(readValue(files.read(big))).toBeNull();
    const fifo = join(base, 'fifo');
    execFileSync('mkfifo', [fifo]);
    expect(readValue(files.read(fifo))).toBeNull();
    expect(errors.map((error) => (error as { code?: string }).code)).toEqual(['EFBIG', 'ENOTREG']);
  });

  it('hands the previous value of the path to the next reading, and forgets paths not kept', () => {
    const file = path();
    const seen: (number | undefined)[] = [];
    const files = new WholeFiles<number>({
      cap: 64,
      parse: (text, previous) => {
        seen.push(previous);
        return { value: text.length };
      },
      unreadable: () => ({ value: -1 }),
    });
    writeFileSync(file, 'ab');
    files.read(file);
    writeFileSync(file, 'abc');
    files.read(file);
    files.keep(new Set());
    files.read(file);
    expect(seen).toEqual([undefined, 2, undefined]);
  });
});
