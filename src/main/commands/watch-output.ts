// `watch`'s stdout (issue 25 item 7): each snapshot is written whole; while the reader is not taking
// them (a stopped pager, a stuck pipe), only the newest waits, written on `drain`, as the event
// stream does (serve/server.ts). Memory stays at one snapshot however long the reader stalls.
import type { Snapshot } from '../../engine';

/** The part of stdout this uses. */
export interface SnapshotSink {
  write(chunk: string | Uint8Array): boolean;
  /** Bytes queued and not yet handed on (0: the last write went through whole). */
  readonly writableLength: number;
  once(event: 'drain', listener: () => void): unknown;
}

export class SnapshotOutput {
  private newest: Snapshot | null = null;
  private full = false;

  constructor(
    private readonly sink: SnapshotSink,
    private readonly render: (snapshot: Snapshot) => string | Uint8Array,
    /** Told when a rendered chunk went through whole: nothing holds its bytes any more. */
    private readonly handedOn: () => void = () => undefined,
  ) {}

  show(snapshot: Snapshot): void {
    if (this.full) {
      // Superseded while it waited: rendered only if it is still the newest at `drain`.
      this.newest = snapshot;
      return;
    }
    if (this.sink.write(this.render(snapshot))) {
      if (this.sink.writableLength === 0) this.handedOn();
      return;
    }
    this.full = true;
    this.sink.once('drain', () => {
      this.full = false;
      const next = this.newest;
      this.newest = null;
      if (next !== null) this.show(next);
    });
  }
}
