// LOOKOUT_HOME/index.json (issue 14): what providers learned of their files, a cache — deleting it
// changes nothing but speed. Versioned and validated: a corrupt one is kept aside and rebuilt, one
// from a newer Lookout is left alone and not used; written atomically and private; merged with the
// file on disk before each write, so two Lookouts sharing a home (app and CLI) lose nothing and
// never corrupt it. Holds what heads say (ids, folders, branches, titles, first prompts) and
// titles from middles: never user facts or other transcript text.
import { isAscii } from 'node:buffer';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FileEntry, SessionIndexPort } from '../../providers/session-index';
import { privateFolder, writePrivate } from '../../providers/system/private-files';
import { withLock } from '../../providers/system/folder-lock';
import { fileStamp } from '../../providers/system/file-stamp';
import { errorCode } from '../../providers/problems';
import { keepAside } from './quarantine';
import { hasShape } from '../../providers/plain-shape';

/** 2: heads kept (1 held middles only; such a file is rebuilt, nothing said). */
const INDEX_VERSION = 2;
/** Written this long after the first change: a scan's many small steps make one write. */
const SAVE_DELAY_MS = 2000;
/**
 * And then at most this often while changes keep coming (a first pass over a big history; issue
 * 27: it was rewritten every 1–2 s, with an fsync each time). A command and a pass's end flush.
 */
const WRITE_EVERY_MS = 30_000;

// The frame is checked when read, each entry when it is used: a cold start uses thousands, and a
// schema's parse of each cost more than the reads it saves (plain-shape.ts). Providers check their
// own head facts.
export interface IndexFile {
  version: typeof INDEX_VERSION;
  providers: Record<string, Record<string, unknown>>;
}

/** Whether a parsed file has the frame of this version's index (entries are checked one by one). */
function isIndexFile(value: unknown): value is IndexFile {
  if (!isRecord(value) || value.version !== INDEX_VERSION || !isRecord(value.providers)) return false;
  for (const key in value.providers) if (!isRecord(value.providers[key])) return false;
  return true;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
const IDENTITY = { dev: 'number', ino: 'number', size: 'number', mtimeMs: 'number', head: 'string' } as const;
const MIDDLE = { scannedTo: 'number', customTitle: 'string?', summaryTitle: 'string?' } as const;
const TAIL = { malformed: 'number', oversized: 'number', tailFrom: 'number' } as const;

/** The entry, if it has the shape of one (an entry that does not is as good as absent). */
function entryOf(value: unknown): FileEntry | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { identity, middle, head, tail } = value as Partial<Record<keyof FileEntry, unknown>>;
  if (!hasShape(identity, IDENTITY) || !(middle === null || hasShape(middle, MIDDLE)) || head === undefined) return undefined;
  if (!(tail === undefined || tail === null || hasShape(tail, TAIL))) return undefined;
  return value as FileEntry;
}

/**
 * The index's text. It is written all ASCII (asciiOnly, below), and ASCII bytes are the same
 * text read as Latin-1, a copy; Node's UTF-8 read of 16.7 MB (20,000 sessions) took ~200 ms more
 * (issue 51). Bytes past ASCII (an index not written by this code) are read as UTF-8.
 */
export function indexText(bytes: Buffer): string {
  return isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
}

export function indexPath(home: string): string {
  return join(home, 'index.json');
}

export class SessionIndexStore implements SessionIndexPort {
  private data: IndexFile = { version: INDEX_VERSION, providers: {} };
  /** Paths whose entries changed here, by provider (their own strings, as `seen`). */
  private readonly changed = new Map<string, Set<string>>();
  private readonly inodes = new Map<string, Map<string, FileEntry>>();
  private timer: NodeJS.Timeout | null = null;
  private unwritable = false;
  /** A newer Lookout's index: read by neither, overwritten by neither. */
  private foreign = false;
  /**
   * Paths asked about or told here, by provider: their files were just seen, so they are not looked
   * for again. Kept by the path's own string (a provider-and-path key made a new string to hash for
   * every file of a cold status: 33 ms of 20,000 files' warm status, issue 51).
   */
  private readonly seen = new Map<string, Set<string>>();

  private saw(provider: string, path: string): void {
    let paths = this.seen.get(provider);
    if (paths === undefined) this.seen.set(provider, (paths = new Set()));
    paths.add(path);
  }
  /** Whether this process looked for the other entries' files once already (issue 27: never on every write). */
  private pruned = false;
  /**
   * When this store last wrote the file (the wall clock: a throttle, not a fact). It starts as the
   * store's start: a first run's cold read is then written with its first pass's end (a flush), or
   * 30 s on, not 2 s on and again at the end, a whole rewrite saved (issue 27).
   */
  private lastWrite = Date.now();

  constructor(
    private readonly home: string,
    private readonly now: () => number,
    private readonly onProblem: (line: string) => void,
  ) {
    this.data = this.read(true) ?? this.data;
  }

  /** The file as it is; null when absent, corrupt (kept aside, said once) or newer (said once). */
  private read(report: boolean): IndexFile | null {
    const path = indexPath(this.home);
    if (!existsSync(path)) return null;
    let raw: unknown;
    try {
      raw = JSON.parse(indexText(readFileSync(path)));
    } catch (error) {
      const code = errorCode(error);
      if (code === 'ENOENT') return null;
      if (code !== null) {
        // Not readable (a folder in its place, no permission): Lookout works without it, and leaves it be.
        if (report && !this.unwritable)
          this.onProblem(
            `lookout: ${path} cannot be read (${code}); Lookout works without its index (it only makes cold starts faster and keeps titles from the middle of long files)`,
          );
        this.unwritable = true;
        return null;
      }
      if (report) this.setAside(path, 'it is not valid JSON');
      return null;
    }
    const version = (raw as { version?: unknown } | null)?.version;
    // An older Lookout's index: a cache, rebuilt in the new shape.
    if (typeof version === 'number' && version < INDEX_VERSION) return null;
    if (typeof version === 'number' && version > INDEX_VERSION) {
      this.foreign = true;
      if (report) this.onProblem(`lookout: ${path} was written by a newer Lookout (version ${version}); it is left as it is and not used`);
      return null;
    }
    if (!isIndexFile(raw)) {
      if (report) this.setAside(path, 'it does not have the expected shape');
      return null;
    }
    return raw;
  }

  private setAside(path: string, why: string): void {
    try {
      const aside = keepAside(path, this.now());
      this.onProblem(`lookout: ${path} could not be used (${why}); kept aside as ${aside} and rebuilt (it is a cache: nothing is lost)`);
    } catch {
      this.onProblem(`lookout: ${path} could not be used (${why}); it is rebuilt in memory`);
    }
  }

  get(provider: string, path: string, dev: number, ino: number): FileEntry | undefined {
    this.saw(provider, path);
    const files = this.data.providers[provider];
    const entry = entryOf(files?.[path]);
    if (entry !== undefined && entry.identity.dev === dev && entry.identity.ino === ino) return entry;
    // Moved (an archived rollout) or linked: the same file under another name.
    return files === undefined ? undefined : this.byFile(provider, files).get(`${dev}:${ino}`);
  }

  /** Entries by device and inode, built once per provider on the first miss. */
  private byFile(provider: string, files: Record<string, unknown>): Map<string, FileEntry> {
    let map = this.inodes.get(provider);
    if (map === undefined) {
      map = new Map();
      for (const value of Object.values(files)) {
        const entry = entryOf(value);
        if (entry !== undefined) map.set(`${entry.identity.dev}:${entry.identity.ino}`, entry);
      }
      this.inodes.set(provider, map);
    }
    return map;
  }

  has(provider: string, path: string): boolean {
    this.saw(provider, path);
    return this.data.providers[provider]?.[path] !== undefined;
  }

  put(provider: string, path: string, entry: FileEntry): void {
    const files = (this.data.providers[provider] ??= {});
    if (files[path] === entry) return;
    files[path] = entry;
    this.inodes.get(provider)?.set(`${entry.identity.dev}:${entry.identity.ino}`, entry);
    let changed = this.changed.get(provider);
    if (changed === undefined) this.changed.set(provider, (changed = new Set()));
    changed.add(path);
    this.saw(provider, path);
    this.schedule();
  }

  private schedule(): void {
    if (this.timer !== null || this.foreign) return;
    const due = Math.max(SAVE_DELAY_MS, this.lastWrite + WRITE_EVERY_MS - Date.now());
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flush();
    }, due);
    // A pending write never keeps a command alive: commands flush before they exit.
    this.timer.unref();
  }

  /**
   * Writes what changed here over what is on disk now (another Lookout may have written
   * meanwhile), under the store's kind of lock so two writers never drop each other's entries;
   * drops the entries of files that are gone.
   */
  flush(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    if (this.changed.size === 0 || this.foreign || this.unwritable) return;
    try {
      privateFolder(this.home);
      withLock(join(this.home, '.index.lock'), () => this.writeMerged());
    } catch (error) {
      const code = errorCode(error);
      // Held by another Lookout past the wait: tried again later, nothing lost meanwhile.
      if (code === null) {
        this.schedule();
        return;
      }
      this.unwritable = true;
      this.onProblem(
        `lookout: ${indexPath(this.home)} cannot be written (${code}); Lookout works without its index (it only makes cold starts faster and keeps titles from the middle of long files)`,
      );
    }
  }

  /** The file as this store last wrote it: unchanged since, it is not read again before a write. */
  private written: string | null = null;

  private writeMerged(): void {
    const path = indexPath(this.home);
    // Nobody wrote it since this store did: what is on disk is what it holds (a long scan's many
    // writes would otherwise each parse the whole file again).
    const disk = this.written !== null && this.written === fileStamp(path) ? this.data : (this.read(false) ?? { version: INDEX_VERSION, providers: {} });
    for (const [provider, paths] of this.changed) {
      const files = this.data.providers[provider];
      const onDisk = (disk.providers[provider] ??= {});
      for (const path of paths) {
        const ours = entryOf(files?.[path]);
        if (ours !== undefined) onDisk[path] = merged(ours, entryOf(onDisk[path]));
      }
    }
    // Entries of files that are gone, looked for once a process, and only those it did not see:
    // a file just read is there (a cold start sees thousands; each existsSync was a syscall).
    if (!this.pruned) {
      this.pruned = true;
      for (const [provider, files] of Object.entries(disk.providers)) {
        const seen = this.seen.get(provider);
        for (const path of Object.keys(files)) if (seen?.has(path) !== true && !existsSync(path)) delete files[path];
      }
    }
    writePrivate(path, indexPieces(disk));
    this.lastWrite = Date.now();
    this.written = fileStamp(path);
    this.changed.clear();
    if (disk !== this.data) this.inodes.clear();
    this.data = disk;
  }

  dispose(): void {
    this.flush();
  }
}

/** Ours, with the further-read middle of the two when both describe the same file (same first bytes). */
function merged(ours: FileEntry, theirs: FileEntry | undefined): FileEntry {
  if (theirs === undefined || theirs.identity.ino !== ours.identity.ino || theirs.identity.head !== ours.identity.head) return ours;
  return (theirs.middle?.scannedTo ?? -1) > (ours.middle?.scannedTo ?? -1) ? { ...ours, middle: theirs.middle } : ours;
}

const PAST_ASCII = /[\u007f-\uffff]/;
const PAST_ASCII_ALL = /[\u007f-\uffff]/g;
/** Past this many distinct characters, one pass with a callback beats a pass per character. */
const DISTINCT_PASSES = 8;

const escaped = (char: string): string => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * The JSON text with each UTF-16 unit past ASCII written as `\uXXXX`: Node reads an all-ASCII
 * file into a one-byte string, which decodes and parses faster than the two-byte string one `…`
 * in a title makes. Titles repeat a few such characters (every cut first prompt ends in `…`): a
 * plain replaceAll per distinct character is native, where a callback per match cost more.
 */
function asciiOnly(json: string): string {
  let text = json;
  for (let pass = 0; pass < DISTINCT_PASSES; pass += 1) {
    const found = PAST_ASCII.exec(text);
    if (found === null) return text;
    text = text.replaceAll(found[0], escaped(found[0]));
  }
  return text.replace(PAST_ASCII_ALL, escaped);
}

/** The index's text is escaped and written this many UTF-16 units at a time (one buffer, reused). */
const PIECE_UNITS = 16 * 1024;
/** What a piece's bytes can come to: every unit escaped (six bytes each). */
const PIECE_BYTES = PIECE_UNITS * 6;

/**
 * The index file's bytes (the file's JSON, all ASCII, and a newline) in pieces, each a view of one
 * buffer, valid until the next is asked for. The JSON is escaped a piece at a time (each unit
 * past ASCII is escaped alone, so a piece may end anywhere): the whole text escaped, joined to its
 * newline and copied to bytes made three more strings and a buffer of the file's size each in fresh
 * memory, several times slower than this (issue 27; `npm run bench` measures it).
 */
function* indexPieces(file: IndexFile): Generator<Buffer> {
  const json = JSON.stringify(file);
  const buffer = Buffer.allocUnsafe(PIECE_BYTES);
  for (let at = 0; at < json.length; at += PIECE_UNITS) {
    yield buffer.subarray(0, buffer.write(asciiOnly(json.slice(at, at + PIECE_UNITS)), 0, 'latin1'));
  }
  yield Buffer.from('\n');
}

/** The index file's bytes in one buffer (what its pieces make). */
export function indexBytes(file: IndexFile): Buffer {
  const copies: Buffer[] = [];
  // Each piece is copied before the next overwrites it.
  for (const piece of indexPieces(file)) copies.push(Buffer.from(piece));
  return Buffer.concat(copies);
}
