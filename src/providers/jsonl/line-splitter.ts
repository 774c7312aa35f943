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

  constructor(private readonly maxLineBytes: number = DEFAULT_MAX_LINE_BYTES) {}

  /** True while an unterminated line (or an oversized one being skipped) is in progress. */
  get midLine(): boolean {
    return this.pendingBytes > 0 || this.skipping;
  }

  push(chunk: Buffer): SplitResult {
    const lines: string[] = [];
    let oversized = 0;
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(0x0a, start);
      if (newline === -1) {
        this.hold(chunk.subarray(start));
        break;
      }
      const piece = chunk.subarray(start, newline);
      start = newline + 1;
      if (this.skipping) {
        this.skipping = false;
        oversized += 1;
        continue;
      }
      if (this.pendingBytes + piece.length > this.maxLineBytes) {
        this.reset();
        oversized += 1;
        continue;
      }
      const whole = this.pendingBytes === 0 ? piece : Buffer.concat([...this.pending, piece]);
      this.reset();
      lines.push(whole.toString('utf8'));
    }
    return { lines, oversized };
  }

  private hold(piece: Buffer): void {
    if (this.skipping) return;
    if (this.pendingBytes + piece.length > this.maxLineBytes) {
      this.reset();
      this.skipping = true;
      return;
    }
    this.pending.push(Buffer.from(piece));
    this.pendingBytes += piece.length;
  }

  private reset(): void {
    this.pending = [];
    this.pendingBytes = 0;
  }
}
