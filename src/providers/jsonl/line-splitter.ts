// Splits byte chunks into complete lines. A line longer than the cap is skipped (and counted)
// without ever being held whole; an unterminated tail waits for its newline (§11 "Both").

export const DEFAULT_MAX_LINE_BYTES = 8 * 1024 * 1024;

export interface SplitResult {
  lines: string[];
  /** Lines dropped for exceeding the cap, counted when their newline arrives. */
  oversized: number;
}

export class LineSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private skipping = false;
  /** While true, bytes up to the first newline are dropped silently (a read that began mid-line). */
  private leading: boolean;
  /** Bytes dropped as the leading partial line, its newline included, once that newline came. */
  leadingBytes = 0;

  constructor(
    readonly maxLineBytes: number = DEFAULT_MAX_LINE_BYTES,
    startsMidLine = false,
  ) {
    this.leading = startsMidLine;
  }

  /** True while an unterminated line (or an oversized one being skipped) is in progress. */
  get midLine(): boolean {
    return this.pendingBytes > 0 || this.skipping || this.leading;
  }

  /** Still dropping the partial line a mid-line read began with. */
  get inLeadingLine(): boolean {
    return this.leading;
  }

  push(chunk: Buffer): SplitResult {
    const lines: string[] = [];
    let oversized = 0;
    let start = 0;
    if (this.leading) {
      const newline = chunk.indexOf(0x0a);
      if (newline === -1) {
        this.leadingBytes += chunk.length;
        return { lines, oversized };
      }
      this.leading = false;
      this.leadingBytes += newline + 1;
      start = newline + 1;
    }
    const last = chunk.lastIndexOf(0x0a);
    if (last < start) {
      this.hold(chunk.subarray(start));
      return { lines, oversized };
    }
    if (this.pendingBytes > 0 || this.skipping) {
      // The first line began in an earlier chunk.
      const newline = chunk.indexOf(0x0a, start);
      const piece = chunk.subarray(start, newline);
      start = newline + 1;
      if (this.skipping || this.pendingBytes + piece.length > this.maxLineBytes) {
        oversized += 1;
      } else {
        lines.push(Buffer.concat([...this.pending, piece]).toString('utf8'));
      }
      this.skipping = false;
      this.reset();
    }
    if (start <= last) {
      // One decode for every line wholly inside this chunk; the cap is checked in characters,
      // which never exceed bytes, so no line over the cap gets through.
      const decoded = chunk.toString('utf8', start, last).split('\n');
      // Indexed: without the optimising compiler a for-of allocates at every step (docs/performance.md).
      for (let index = 0; index < decoded.length; index += 1) {
        const line = decoded[index] ?? '';
        if (line.length > this.maxLineBytes) oversized += 1;
        else lines.push(line);
      }
    }
    this.hold(chunk.subarray(last + 1));
    return { lines, oversized };
  }

  private hold(piece: Buffer): void {
    if (this.skipping || piece.length === 0) return;
    if (this.pendingBytes + piece.length > this.maxLineBytes) {
      this.reset();
      this.skipping = true;
      return;
    }
    // Copied: the caller reuses its read buffer.
    const copy = Buffer.allocUnsafe(piece.length);
    piece.copy(copy);
    this.pending.push(copy);
    this.pendingBytes += piece.length;
  }

  private reset(): void {
    this.pending = [];
    this.pendingBytes = 0;
  }
}
