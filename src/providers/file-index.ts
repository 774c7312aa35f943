// One provider's files as the session index knows them (issue 14). A cold read asks what the index
// holds for the file it has open: an entry still holds while the file is the same one, only grown
// (same device, inode and first bytes, no smaller). Then the head is not read again; otherwise
// the entry is dropped and the file read afresh.
import { readSync } from 'node:fs';
import type { OpenFile } from './jsonl/tail-file';
import type { FileEntry, FileIdentity, MiddleScan, SessionIndexPort } from './session-index';

const HEAD_HASH_BYTES = 4096;
const hashBuffer = Buffer.allocUnsafe(HEAD_HASH_BYTES);

/** A hash of the file's first 4 KB, read through the open descriptor. */
export function headHash(fd: number, size: number): string {
  const read = readSync(fd, hashBuffer, 0, Math.min(HEAD_HASH_BYTES, size), 0);
  // Loaded at the first hash, not with every command (an unchanged file is never hashed).
  return process.getBuiltinModule('node:crypto').createHash('sha1').update(hashBuffer.subarray(0, read)).digest('hex');
}

/** Whether `now` is the file `then` was, only grown (the head hash compared by the caller). */
export function sameOrGrown(then: FileIdentity, now: { dev: number; ino: number; size: number }): boolean {
  return then.dev === now.dev && then.ino === now.ino && now.size >= then.size;
}

/** How a provider keeps a head's reading in the index (plain JSON), and takes it back, validated. */
export interface HeadCodec<A> {
  facts(head: A): unknown;
  /** Null when the facts are not in this codec's shape (an older Lookout's): the head is read again. */
  restore(facts: unknown): A | null;
}

/** What the index said of a file when it was opened: the entry, if it holds, and the file as it is. */
export interface Recalled {
  entry: FileEntry | null;
  identity: FileIdentity;
}

export class FileIndex<A> {
  constructor(
    private readonly port: SessionIndexPort,
    private readonly provider: string,
    private readonly codec: HeadCodec<A>,
  ) {}

  recall(path: string, file: OpenFile): Recalled {
    const entry = this.port.get(this.provider, path, file.dev, file.ino);
    const { dev, ino, size, mtimeMs } = file;
    if (entry !== undefined && sameOrGrown(entry.identity, file)) {
      // Unchanged (size and time alike): trusted without reading a byte.
      if (entry.identity.size === size && entry.identity.mtimeMs === mtimeMs) return { entry, identity: entry.identity };
      const head = headHash(file.fd, size);
      if (head === entry.identity.head) return { entry, identity: { dev, ino, size, mtimeMs, head } };
      return { entry: null, identity: { dev, ino, size, mtimeMs, head } };
    }
    return { entry: null, identity: { dev, ino, size, mtimeMs, head: headHash(file.fd, size) } };
  }

  /** The head kept for this file, if there is one and it is in the codec's shape. */
  head(recalled: Recalled): A | null {
    const facts = recalled.entry?.head;
    return facts === undefined || facts === null ? null : this.codec.restore(facts);
  }

  /**
   * Records the file as read now (`reused`: its head came from the entry). The store writes only
   * what is new: a first read, a grown, moved or replaced file.
   */
  remember(path: string, recalled: Recalled, head: A, reused: boolean): FileEntry {
    const { entry, identity } = recalled;
    const next: FileEntry =
      entry !== null && reused ? (entry.identity === identity ? entry : { ...entry, identity }) : { identity, head: this.codec.facts(head), middle: entry?.middle ?? null };
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
