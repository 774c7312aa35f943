// One provider's files as the session index knows them (issue 14). A cold read asks what the index
// holds for the file it has open: an entry still holds while the file is the same one, only grown
// (same device, inode and first bytes, no smaller). Then the head is not read again; otherwise
// the entry is dropped and the file read afresh.
import { readSync } from 'node:fs';
import type { OpenFile } from './jsonl/tail-file';
import { headPrefix } from './jsonl/tail-file';
import type { FileEntry, FileIdentity, MiddleScan, SessionIndexPort, TailReading } from './session-index';

const HEAD_HASH_BYTES = 4096;
const hashBuffer = Buffer.allocUnsafe(HEAD_HASH_BYTES);

/** A hash of the file's first 4 KB, read through the open descriptor (or taken from the head just read there). */
export function headHash(fd: number, size: number): string {
  const want = Math.min(HEAD_HASH_BYTES, size);
  const bytes = headPrefix(fd, want) ?? hashBuffer.subarray(0, readSync(fd, hashBuffer, 0, want, 0));
  // Loaded at the first hash, not with every command (an unchanged file is never hashed).
  return process.getBuiltinModule('node:crypto').hash('sha1', bytes, 'hex');
}

/** Whether `now` is the file `then` was, only grown (the head hash compared by the caller). */
export function sameOrGrown(then: FileIdentity, now: { dev: number; ino: number; size: number }): boolean {
  return then.dev === now.dev && then.ino === now.ino && now.size >= then.size;
}

/** How a provider keeps a file's readings in the index (plain JSON), and takes them back, checked. */
export interface FileCodec<A> {
  facts(head: A): unknown;
  /** Null when the facts are not in this codec's shape (an older Lookout's): the head is read again. */
  restore(facts: unknown): A | null;
  /** The end's reading, or null when it may not be kept (it carries transcript text); `head` as read or kept. */
  tailFacts?(tail: A, head: A): unknown;
  /** The end's reading back: it takes no more records (a changed file is read afresh). */
  restoreTail?(facts: unknown): A | null;
}

/** What an unchanged file's entry gives back without opening it. */
export interface Unchanged<A> {
  entry: FileEntry;
  head: A;
  tail: A;
  reading: TailReading;
}

/**
 * What the index said of a file when it was opened: the entry, if it holds, and the file as it is
 * (`fd` open; its first bytes hashed when first needed: for a file the index did not know, after
 * its head was read, from the same bytes).
 */
export interface Recalled {
  entry: FileEntry | null;
  /** The entry's identity, when the file is unchanged since (same size and time). */
  unchanged: FileIdentity | null;
  stat: { dev: number; ino: number; size: number; mtimeMs: number };
  /** The first bytes' hash, once computed. */
  hash: string | null;
  fd: number;
}

export class FileIndex<A> {
  constructor(
    private readonly port: SessionIndexPort,
    private readonly provider: string,
    private readonly codec: FileCodec<A>,
  ) {}

  recall(path: string, file: OpenFile): Recalled {
    const entry = this.port.get(this.provider, path, file.dev, file.ino);
    const { dev, ino, size, mtimeMs, fd } = file;
    const stat = { dev, ino, size, mtimeMs };
    if (entry === undefined || !sameOrGrown(entry.identity, file)) return { entry: null, unchanged: null, stat, hash: null, fd };
    // Unchanged (size and time alike): trusted without reading a byte.
    if (entry.identity.size === size && entry.identity.mtimeMs === mtimeMs) return { entry, unchanged: entry.identity, stat, hash: entry.identity.head, fd };
    const hash = headHash(fd, size);
    return { entry: hash === entry.identity.head ? entry : null, unchanged: null, stat, hash, fd };
  }

  /** The head kept for this file, if there is one and it is in the codec's shape. */
  head(recalled: Recalled): A | null {
    const facts = recalled.entry?.head;
    return facts === undefined || facts === null ? null : this.codec.restore(facts);
  }

  /** Whether the index may hold this file's readings (a cheap look before any stat). */
  mayKnow(path: string): boolean {
    return this.codec.restoreTail !== undefined && this.port.has(this.provider, path);
  }

  /**
   * Both readings of a file unchanged since its entry was written (same device, inode, size and
   * time), when the entry kept its end's: the file need not be opened at all.
   */
  unchanged(path: string, now: { dev: number; ino: number; size: number; mtimeMs: number }): Unchanged<A> | null {
    if (this.codec.restoreTail === undefined) return null;
    const entry = this.port.get(this.provider, path, now.dev, now.ino);
    const reading = entry?.tail;
    if (entry === undefined || reading === undefined || reading === null) return null;
    const { identity } = entry;
    if (identity.dev !== now.dev || identity.ino !== now.ino || identity.size !== now.size || identity.mtimeMs !== now.mtimeMs) return null;
    const head = entry.head === null ? null : this.codec.restore(entry.head);
    const tail = this.codec.restoreTail(reading.facts);
    if (head === null || tail === null) return null;
    // Under this name from now on (it may have been found under its old one: moved).
    this.port.put(this.provider, path, entry);
    return { entry, head, tail, reading };
  }

  /**
   * Records the file as read now (`reused`: its head came from the entry) and its end's reading
   * when that may be kept. The store writes only what is new: a first read, a grown, moved or
   * replaced file, an end not kept before.
   */
  remember(path: string, recalled: Recalled, head: A, reused: boolean, tail: Omit<TailReading, 'facts'> & { tail: A }): FileEntry {
    const { entry, unchanged, stat, fd } = recalled;
    const identity: FileIdentity = unchanged ?? { ...stat, head: recalled.hash ?? headHash(fd, stat.size) };
    const facts = this.codec.tailFacts?.(tail.tail, head) ?? null;
    const reading: TailReading | null = facts === null ? null : { facts, malformed: tail.malformed, oversized: tail.oversized, tailFrom: tail.tailFrom };
    const same = entry !== null && reused && unchanged !== null && ((entry.tail ?? null) !== null) === (reading !== null);
    const next: FileEntry = same
      ? entry
      : { identity, head: entry !== null && reused ? entry.head : this.codec.facts(head), middle: entry?.middle ?? null, tail: reading };
    this.port.put(this.provider, path, next);
    return next;
  }

  /** What a background scan learned of the file's middle; put in the index when `save`. */
  learn(path: string, entry: FileEntry, middle: MiddleScan, save: boolean): FileEntry {
    const next: FileEntry = { ...entry, middle };
    if (save) this.port.put(this.provider, path, next);
    return next;
  }
}
