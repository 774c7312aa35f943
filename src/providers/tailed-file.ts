// One JSONL file followed incrementally: a cold read of its end (widening the window only while
// the tail does not settle the state), its head for titles, then appends as they come.
import { statSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { LineSplitter } from './jsonl/line-splitter';
import { DEFAULT_MAX_LINE_BYTES } from './jsonl/line-splitter';
import type { JsonRecord } from './jsonl/parse-record';
import { parseRecord } from './jsonl/parse-record';
import type { OpenFile, WindowRead } from './jsonl/tail-file';
import { moreLinesThan, readAppended, readHead, readWindow, withOpenFile } from './jsonl/tail-file';
import type { FileIndex } from './file-index';
import type { FileEntry, MiddleScan } from './session-index';

export interface Accumulator {
  apply(record: JsonRecord): void;
  /** The tail decides the state: the cold read need not look further back. */
  readonly settled: boolean;
  /** The head has given what only the head holds (identity, first prompt): stop reading it. */
  readonly headDone: boolean;
  /** This record opens the current turn: records before it no longer shape the state. Stateless. */
  opensTurn?(record: JsonRecord): boolean;
  /**
   * Which of the lines before the current turn (`lines[0..end)`) still matter, by cheap text tests
   * (titles, sidechains, interrupted turns; the first prompt when `wholeFile`). Ascending. Stateless.
   */
  keptBefore?(lines: readonly string[], end: number, wholeFile: boolean): number[];
  /** A cheap test of a head line's first bytes: does the head need this line at all? */
  headWants?(prefix: string): boolean;
}

export interface TailOptions {
  firstWindow: number;
  maxWindow: number;
  headBytes: number;
  maxLineBytes: number;
  /**
   * The cold read stops widening once it holds this many lines, and the head stops after as many:
   * a file of tiny lines (`{}` or bare newlines) costs no more than one of real records.
   */
  maxLines: number;
  /** The head's first read, when a format's heads are known to be long (else HEAD_FIRST_CHUNK). */
  headFirstRead?: number;
}

export const DEFAULT_TAIL_OPTIONS: TailOptions = {
  firstWindow: 8 * 1024,
  maxWindow: 16 * 1024 * 1024,
  headBytes: 1024 * 1024,
  maxLineBytes: DEFAULT_MAX_LINE_BYTES,
  maxLines: 100_000,
};

export class TailedFile<A extends Accumulator> {
  /** The end's reading; made empty only when first asked for (a file restored from the index never needs an empty one). */
  private current: A | null = null;
  get tail(): A {
    return (this.current ??= this.make());
  }
  set tail(reading: A) {
    this.current = reading;
  }
  /** The file's first lines, when the tail window did not reach them (titles, first prompt). */
  head: A | null = null;
  malformed = 0;
  oversized = 0;
  /** What the session index holds for this file as last loaded (issue 14); null without an index. */
  known: FileEntry | null = null;
  /** Where the tail's reading begins: what lies before it (and after the head) only a scan of the middle sees. */
  tailFrom = 0;
  private cursor: { ino: number; offset: number; splitter: LineSplitter } | null = null;

  constructor(
    readonly path: string,
    private readonly make: () => A,
    private readonly options: TailOptions = DEFAULT_TAIL_OPTIONS,
    private readonly index: FileIndex<A> | null = null,
  ) {}

  get skipped(): number {
    return this.malformed + this.oversized;
  }

  /**
   * Reads the file from scratch (first load, or after it shrank or was replaced) — or, when the
   * index knows it unchanged since (same size and time) with its end's reading, takes both
   * readings from the index without opening it (issue 14).
   */
  load(): void {
    if (this.restore()) return;
    withOpenFile(this.path, (file) => this.loadFrom(file));
  }

  /** The stat the readings were taken back for; null once the file has been read. */
  private restoredAs: { ino: number; size: number; mtimeMs: number } | null = null;

  private restore(): boolean {
    // Nothing kept under this name (a first run, a new file): no stat, straight to the read.
    if (this.index === null || !this.index.mayKnow(this.path)) return false;
    let info: Stats;
    try {
      info = statSync(this.path);
    } catch {
      return false; // the read says why, as for any file
    }
    const kept = info.isFile() ? this.index.unchanged(this.path, info) : null;
    if (kept === null) return false;
    this.tail = kept.tail;
    this.head = kept.head;
    this.malformed = kept.reading.malformed;
    this.oversized = kept.reading.oversized;
    this.tailFrom = kept.reading.tailFrom;
    this.known = kept.entry;
    this.cursor = null;
    this.restoredAs = { ino: info.ino, size: info.size, mtimeMs: info.mtimeMs };
    return true;
  }

  private loadFrom(file: OpenFile): void {
    const { firstWindow, maxWindow, maxLineBytes } = this.options;
    const first = readWindow(file, firstWindow, maxLineBytes);
    const recent = this.parseLastTurn(first.lines, first.reachedStart);
    if (recent?.tail.settled) {
      this.finishLoad(file, first, recent.tail, recent.malformed, first.oversized, first.reachedStart, first.from);
      return;
    }
    let records = this.parse(first.lines);
    let malformed = records.malformed;
    let oversized = first.oversized;
    let from = first.from;
    let reachedStart = first.reachedStart;
    let window = firstWindow;
    let tail = this.replay(records.parsed);
    // Where appends resume: after the last complete line. When the first window held none, the
    // unfinished last line began earlier; a widened read finds its start.
    let cursor = first.lastNewline === -1 && !first.reachedStart ? null : { offset: first.resumeAt, splitter: first.splitter };
    // Widen backwards only while the tail does not settle the state; earlier lines are parsed once.
    let lines = first.lines.length;
    while ((!tail.settled || cursor === null) && !reachedStart && window < maxWindow && lines < this.options.maxLines) {
      const earlier = readWindow(file, window * 3, maxLineBytes, from);
      lines += earlier.lines.length;
      if (cursor === null && earlier.lastNewline !== -1) cursor = { offset: earlier.lastNewline + 1, splitter: new LineSplitter(maxLineBytes) };
      window *= 4;
      const older = this.parse(earlier.lines);
      records = { parsed: [...older.parsed, ...records.parsed], malformed: 0 };
      malformed += older.malformed;
      oversized += earlier.oversized;
      from = earlier.from;
      reachedStart = earlier.reachedStart;
      tail = this.replay(records.parsed);
    }
    this.finishLoad(file, first, tail, malformed, oversized, reachedStart, from, cursor ?? { offset: first.resumeAt, splitter: first.splitter });
  }

  private finishLoad(
    file: OpenFile,
    first: WindowRead,
    tail: A,
    malformed: number,
    oversized: number,
    reachedStart: boolean,
    from: number,
    cursor?: { offset: number; splitter: LineSplitter },
  ): void {
    this.tail = tail;
    this.malformed = malformed;
    this.oversized = oversized;
    this.tailFrom = from;
    this.restoredAs = null;
    this.cursor = { ino: first.ino, offset: cursor?.offset ?? first.resumeAt, splitter: cursor?.splitter ?? first.splitter };
    const { index } = this;
    // A file read whole has no head and no middle: the index keeps nothing of it.
    if (reachedStart || index === null) {
      this.head = reachedStart ? null : this.loadHead(file);
      this.known = null;
      return;
    }
    // The head the index kept for this same file, else the head read now (issue 14).
    const recalled = index.recall(this.path, file);
    const kept = index.head(recalled);
    this.head = kept ?? this.loadHead(file);
    this.known = index.remember(this.path, recalled, this.head, kept !== null, { tail, malformed, oversized, tailFrom: from });
  }

  /** What a background scan learned of this file's middle; `save`: written to the index too, not only kept here. */
  learn(middle: MiddleScan, save: boolean): void {
    if (this.index !== null && this.known !== null) this.known = this.index.learn(this.path, this.known, middle, save);
  }

  /**
   * Parses the window from its end back to the record that opened the current turn, and only the
   * lines before it that still matter: most of a cold read's parsing is skipped (docs/performance.md).
   * Null when the window holds no turn start (then everything is parsed).
   */
  private parseLastTurn(lines: readonly string[], wholeFile: boolean): { tail: A; malformed: number } | null {
    // The turn tests read only the record or line they are given, so any accumulator will do.
    const probe = this.tail;
    if (probe.opensTurn === undefined) return null;
    const parsed: (JsonRecord | null)[] = new Array<JsonRecord | null>(lines.length).fill(null);
    let malformed = 0;
    let start = -1;
    for (let index = lines.length - 1; index >= 0; index -= 1) {
      const record = parseRecord(lines[index] ?? '');
      if (record === null) {
        if ((lines[index] ?? '').trim() !== '') malformed += 1;
        continue;
      }
      parsed[index] = record;
      if (probe.opensTurn(record)) {
        start = index;
        break;
      }
    }
    if (start === -1) return null;
    for (const index of probe.keptBefore?.(lines, start, wholeFile) ?? []) parsed[index] = parseRecord(lines[index] ?? '');
    return { tail: this.replay(parsed.filter((record): record is JsonRecord => record !== null)), malformed };
  }

  /** Applies what was appended since the last read; reloads when the file was replaced. Says whether anything changed. */
  update(): boolean {
    if (this.cursor === null) {
      // Taken from the index: unchanged still, nothing to do; changed, read afresh (its end takes no appends).
      const was = this.restoredAs;
      if (was !== null) {
        const info = statSync(this.path);
        if (info.ino === was.ino && info.size === was.size && info.mtimeMs === was.mtimeMs) return false;
      }
      this.load();
      return true;
    }
    // One stat tells an untouched file: no open, no read (the rescan checks every file).
    const info = statSync(this.path);
    if (info.ino === this.cursor.ino && info.size === this.cursor.offset) return false;
    // A large burst of tiny lines: the end decides the state, so it is read cold (bounded). A few
    // long lines are still streamed past, and counted.
    const appended = info.size - this.cursor.offset;
    // (A line takes at least a byte: an append of fewer bytes than the line budget needs no count.)
    if (info.ino === this.cursor.ino && appended > this.options.maxLines && moreLinesThan(this.path, this.cursor.offset, info.size, this.options.maxLines)) {
      this.load();
      return true;
    }
    const read = readAppended(this.path, this.cursor.offset, this.cursor.ino, this.cursor.splitter);
    if (read.replaced) {
      this.load();
      return true;
    }
    this.malformed += this.feed(this.tail, read.lines);
    this.oversized += read.oversized;
    this.cursor = { ino: read.ino, offset: read.resumeAt, splitter: read.splitter };
    return read.lines.length > 0 || read.oversized > 0;
  }

  private loadHead(file: OpenFile): A {
    const head = this.make();
    let lines = 0;
    readHead(
      file,
      this.options.headBytes,
      this.options.maxLineBytes,
      (line) => {
        this.feed(head, [line]);
        lines += 1;
        return head.headDone || lines >= this.options.maxLines;
      },
      (prefix) => head.headWants?.(prefix) ?? true,
      this.options.headFirstRead,
    );
    return head;
  }

  private parse(lines: readonly string[]): { parsed: JsonRecord[]; malformed: number } {
    const parsed: JsonRecord[] = [];
    let malformed = 0;
    for (const line of lines) {
      const record = parseRecord(line);
      if (record !== null) parsed.push(record);
      else if (line.trim() !== '') malformed += 1;
    }
    return { parsed, malformed };
  }

  private replay(records: readonly JsonRecord[]): A {
    const accumulator = this.make();
    for (const record of records) accumulator.apply(record);
    return accumulator;
  }

  /** Feeds lines to an accumulator; returns how many were not records. */
  private feed(accumulator: A, lines: readonly string[]): number {
    let malformed = 0;
    for (const line of lines) {
      const record = parseRecord(line);
      if (record === null) {
        if (line.trim() !== '') malformed += 1;
        continue;
      }
      accumulator.apply(record);
    }
    return malformed;
  }
}
