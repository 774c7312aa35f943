// Issue 27: `watch --json` encodes each row's JSON once while the row stays the same object; the
// line is byte for byte what the plain rendering gives, whatever the rows' text holds.
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { SnapshotLines, snapshotJsonBytes } from '../../../src/main/cli/snapshot-json';
import { SnapshotOutput } from '../../../src/main/commands/watch-output';
import type { Snapshot } from '../../../src/engine';
import { jsonLine } from '../../../src/main/text/terminal-text';

/** What the plain rendering writes: the line and a newline, in UTF-8. */
const plain = (snapshot: object): string => `${jsonLine(snapshot)}\n`;
const written = <S extends { sessions: readonly object[] }>(snapshot: S): string => snapshotJsonBytes(snapshot).toString('utf8');

const text = fc.string({
  unit: fc.oneof(
    fc.constantFrom('\u0000', '\u001b', '\u007f', '\u0085', '\u2028', '\u202e', '\u2063', '"', '\\', ','),
    fc.string({ minLength: 1, maxLength: 1 }),
  ),
  maxLength: 30,
});
const row = fc.record({ key: text, title: fc.option(text), observed: fc.record({ state: text, at: fc.option(text) }), count: fc.integer() });

describe('issue 27: a snapshot as one JSON line', () => {
  it('is exactly jsonLine(snapshot), for any rows, on a first and a repeated rendering', () => {
    fc.assert(
      fc.property(fc.array(row, { maxLength: 20 }), text, (rows, now) => {
        const snapshot = { schemaVersion: 9, now, attention: { count: rows.length, color: now }, sessions: rows };
        expect(written(snapshot)).toBe(plain(snapshot));
        // The same row objects in another snapshot (the engine's reuse): still exact.
        const next = { ...snapshot, now: `${now}!`, sessions: [...rows].reverse() };
        expect(written(next)).toBe(plain(next));
      }),
      { numRuns: 300 },
    );
  });

  it('a new row object is written afresh, an unchanged one is not stringified again', () => {
    const same = { key: 'a', state: 'idle' };
    const first = written({ now: '1', sessions: [same, { key: 'b', state: 'running' }] });
    expect(first).toBe('{"now":"1","sessions":[{"key":"a","state":"idle"},{"key":"b","state":"running"}]}\n');
    const stringify = JSON.stringify;
    let calls = 0;
    JSON.stringify = ((...args: Parameters<typeof stringify>) => {
      calls += 1;
      return stringify(...args);
    }) as typeof JSON.stringify;
    try {
      expect(written({ now: '2', sessions: [same, { key: 'b', state: 'idle' }] })).toBe(
        '{"now":"2","sessions":[{"key":"a","state":"idle"},{"key":"b","state":"idle"}]}\n',
      );
    } finally {
      JSON.stringify = stringify;
    }
    // The frame and the one new row: never the unchanged row, nor the constant mark.
    expect(calls).toBe(2);
  });

  it('a field of the frame that happens to hold the rows mark still renders exactly', () => {
    const snapshot = { now: '\u2063lookout-rows\u2063', sessions: [{ key: 'a' }] };
    expect(written(snapshot)).toBe(plain(snapshot));
  });

  it('a line handed on whole lends its memory to the next; the bytes are the plain line whatever the size', () => {
    const lines = new SnapshotLines();
    const rowsOf = (count: number, size: number) => Array.from({ length: count }, (_, n) => ({ key: `k${n}`, title: 'x'.repeat(size) }));
    let memory: ArrayBufferLike | null = null;
    let reused = 0;
    for (const [count, size] of [
      [50, 100],
      [50, 90],
      [51, 100],
      [400, 300],
      [10, 5],
      [0, 0],
      [3, 2000],
    ] as const) {
      const snapshot = { now: `${count}/${size}`, sessions: rowsOf(count, size) };
      const line = lines.line(snapshot);
      expect(line.toString('utf8')).toBe(plain(snapshot));
      if (line.buffer === memory) reused += 1;
      memory = line.buffer;
      lines.handedOn(line);
    }
    // Smaller lines, and one a little larger (room was left), take the memory before them.
    expect(reused).toBeGreaterThanOrEqual(4);
  });

  it("a quiet watch holds no line's memory: what a line left is lent only to a line that comes soon after (issue 51)", () => {
    vi.useFakeTimers();
    try {
      const lines = new SnapshotLines(2_000);
      const snapshot = { now: 'n', sessions: [{ key: 'k', title: 'x'.repeat(200) }] };
      const first = lines.line(snapshot);
      lines.handedOn(first);
      vi.advanceTimersByTime(1_999);
      const soon = lines.line(snapshot);
      expect(soon.buffer).toBe(first.buffer);
      lines.handedOn(soon);
      vi.advanceTimersByTime(2_000);
      const late = lines.line(snapshot);
      expect(late.buffer).not.toBe(first.buffer);
      expect(late.toString('utf8')).toBe(plain(snapshot));
      // A line being made stops the forgetting: its own memory, once handed on, waits afresh.
      lines.handedOn(late);
      expect(vi.getTimerCount()).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a line still queued (a reader that stalls) is never written over; once it has left, its memory is lent again', () => {
    const held: Buffer[] = [];
    const waiting: (() => void)[] = [];
    // A pipe that takes each chunk and keeps it queued: `write` says "go on", but the bytes still wait.
    const sink = {
      write(chunk: string | Uint8Array, done: (error?: Error | null) => void): boolean {
        // The very bytes handed over, not a copy: what a queued write still points at.
        held.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        waiting.push(() => done(null));
        return true;
      },
      once: () => undefined,
    };
    const lines = new SnapshotLines();
    const output = new SnapshotOutput(
      sink,
      (snapshot) => lines.line(snapshot),
      (chunk) => (typeof chunk === 'string' ? undefined : lines.handedOn(chunk)),
    );
    const snap = (n: number): Snapshot => ({
      schemaVersion: 1,
      now: String(n),
      attention: { count: 0, level: 'none', needYou: 0, review: 0, working: 0, limited: 0 },
      sessions: [],
      limits: [],
    });
    const snapshots = [snap(1), snap(2), snap(3)];
    for (const snapshot of snapshots) output.show(snapshot);
    expect(held.map((chunk) => chunk.toString('utf8'))).toEqual(snapshots.map((snapshot) => plain(snapshot)));
    expect(new Set(held.map((chunk) => chunk.buffer)).size).toBe(3);
    // The first line has left: the next one is written into its memory.
    waiting[0]?.();
    output.show(snap(4));
    expect(held[3]?.buffer).toBe(held[0]?.buffer);
    expect(held[3]?.toString('utf8')).toBe(plain(snap(4)));
    expect(held[1]?.toString('utf8')).toBe(plain(snap(2)));
  });
});
