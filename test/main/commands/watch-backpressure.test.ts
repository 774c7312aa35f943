// Issue 25 item 7: `watch --json` ignored backpressure. With its reader stopped (a stopped pager, a
// stuck pipe), every snapshot was buffered: ~940 MB after 80 large ones. Now only the newest
// waits, written when the stream drains, as the event stream does (serve-stream.test.ts).
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Row, Snapshot } from '../../../src/engine';
import { SnapshotOutput } from '../../../src/main/commands/watch-output';
import { jsonLine } from '../../../src/main/text/terminal-text';

/** A large snapshot (about 200 KB), numbered by its `now`. */
function snapshot(index: number): Snapshot {
  const rows = Array.from({ length: 100 }, (_, n) => ({ key: `claude:${n}`, title: 't'.repeat(2000) }) as unknown as Row);
  return {
    schemaVersion: 1,
    now: String(index),
    attention: { count: 0, level: 'none', needYou: 0, review: 0, working: 0, limited: 0 },
    sessions: rows,
    limits: [],
  };
}

/** stdout into a pipe nobody reads: the first write is taken and never finished until `release`. */
function stuckPipe(): { stream: Writable; written: string[]; release: () => void } {
  const written: string[] = [];
  let held: (() => void) | null = null;
  const stream = new Writable({
    highWaterMark: 16 * 1024,
    write(chunk: Buffer, _encoding, done) {
      written.push(chunk.toString());
      held = () => done();
    },
  });
  return {
    stream,
    written,
    release: () => {
      const finish = held;
      held = null;
      finish?.();
    },
  };
}

describe('issue 25 item 7: watch --json and a reader that stops', () => {
  it('issue 25 item 7: with its reader stopped, 80 large snapshots leave one waiting (the newest), written on drain', async () => {
    const { stream, written, release } = stuckPipe();
    let rendered = 0;
    const output = new SnapshotOutput(stream, (shown) => {
      rendered += 1;
      return `${jsonLine(shown)}\n`;
    });
    const one = jsonLine(snapshot(0)).length + 1;
    for (let index = 0; index < 80; index += 1) output.show(snapshot(index));
    // Held in memory: the one snapshot the pipe took, not 80 of them (about 16 MB); the 78 superseded never even rendered.
    expect(stream.writableLength).toBeLessThanOrEqual(one);
    expect(written).toHaveLength(1);
    expect(rendered).toBe(1);
    release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(written.map((line) => (JSON.parse(line) as Snapshot).now)).toEqual(['0', '79']);
    // Reading again: each snapshot goes out as it comes.
    release();
    await new Promise((resolve) => setImmediate(resolve));
    output.show(snapshot(80));
    expect(written.map((line) => (JSON.parse(line) as Snapshot).now)).toEqual(['0', '79', '80']);
    expect(rendered).toBe(3);
  });
});
