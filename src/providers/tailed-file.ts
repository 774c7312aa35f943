// One JSONL file followed incrementally: a cold read of its end (widening the window only while
// the tail does not settle the state), its head for titles, then appends as they come.
import type { LineSplitter } from './jsonl/line-splitter';
import { DEFAULT_MAX_LINE_BYTES } from './jsonl/line-splitter';
import type { JsonRecord } from './jsonl/parse-record';
import { parseRecord } from './jsonl/parse-record';
import { readAppended, readHead, readWindow } from './jsonl/tail-file';

export interface Accumulator {
  apply(record: JsonRecord): void;
  readonly settled: boolean;
}

export interface TailOptions {
  firstWindow: number;
  maxWindow: number;
  headBytes: number;
  maxLineBytes: number;
}

export const DEFAULT_TAIL_OPTIONS: TailOptions = {
  firstWindow: 128 * 1024,
  maxWindow: 16 * 1024 * 1024,
  headBytes: 256 * 1024,
  maxLineBytes: DEFAULT_MAX_LINE_BYTES,
};

export class TailedFile<A extends Accumulator> {
  tail: A;
  /** The file's first lines, when the tail window did not reach them (titles, first prompt). */
  head: A | null = null;
  malformed = 0;
  oversized = 0;
  private cursor: { ino: number; offset: number; splitter: LineSplitter } | null = null;

  constructor(
    readonly path: string,
    private readonly make: () => A,
    private readonly options: TailOptions = DEFAULT_TAIL_OPTIONS,
  ) {
    this.tail = make();
  }

  get skipped(): number {
    return this.malformed + this.oversized;
  }

  /** Reads the file from scratch (first load, or after it shrank or was replaced). */
  async load(): Promise<void> {
    let window = this.options.firstWindow;
    for (;;) {
      const read = await readWindow(this.path, window, this.options.maxLineBytes);
      const fresh = this.make();
      const counts = this.feed(fresh, read.lines);
      if (fresh.settled || read.reachedStart || window >= this.options.maxWindow) {
        this.tail = fresh;
        this.malformed = counts;
        this.oversized = read.oversized;
        this.cursor = { ino: read.ino, offset: read.resumeAt, splitter: read.splitter };
        this.head = read.reachedStart ? null : await this.loadHead();
        return;
      }
      window *= 4;
    }
  }

  /** Applies what was appended since the last read; reloads when the file was replaced. */
  async update(): Promise<void> {
    if (this.cursor === null) return this.load();
    const read = await readAppended(this.path, this.cursor.offset, this.cursor.ino, this.cursor.splitter);
    if (read.replaced) return this.load();
    this.malformed += this.feed(this.tail, read.lines);
    this.oversized += read.oversized;
    this.cursor = { ino: read.ino, offset: read.resumeAt, splitter: read.splitter };
  }

  private async loadHead(): Promise<A> {
    const head = this.make();
    const read = await readHead(this.path, this.options.headBytes, this.options.maxLineBytes);
    this.feed(head, read.lines);
    return head;
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
