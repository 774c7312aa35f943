// `watch`'s stdout (issue 25 item 7): each snapshot is written whole; while the reader is not taking
// them (a stopped pager, a stuck pipe), only the newest waits, written on `drain`, as the event
// stream does (serve/server.ts). Memory stays at one snapshot however long the reader stalls.
import type { Snapshot } from '../../engine';

/** The part of stdout this uses. */
export interface SnapshotSink {
  /** `done` is called once the chunk has left the process (its bytes are no longer held). */
  write(chunk: string | Uint8Array, done: (error?: Error | null) => void): boolean;
  once(event: 'drain', listener: () => void): unknown;
}

export class SnapshotOutput {
  private newest: Snapshot | null = null;
  private full = false;

  constructor(
    private readonly sink: SnapshotSink,
    private readonly render: (snapshot: Snapshot) => string | Uint8Array,
    /** Told when a rendered chunk has left the process: nothing holds its bytes any more. */
    private readonly handedOn: (chunk: string | Uint8Array) => void = () => undefined,
  ) {}

  show(snapshot: Snapshot): void {
    if (this.full) {
      // Superseded while it waited: rendered only if it is still the newest at `drain`.
      this.newest = snapshot;
      return;
    }
    const chunk = this.render(snapshot);
    // A failed write leaves the stream destroyed: its chunk is not lent again.
    if (this.sink.write(chunk, (error) => (error === null || error === undefined ? this.handedOn(chunk) : undefined))) return;
    this.full = true;
    this.sink.once('drain', () => {
      this.full = false;
      const next = this.newest;
      this.newest = null;
      if (next !== null) this.show(next);
    });
  }
}
