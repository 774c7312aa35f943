// Issue 27: `watch --json` encodes each row's JSON once while the row stays the same object; the
// line is byte for byte what the plain rendering gives, whatever the rows' text holds.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { snapshotJsonBytes } from '../../src/main/cli/snapshot-json';
import { jsonLine } from '../../src/main/cli/terminal-text';

/** What the plain rendering writes: the line and a newline, in UTF-8. */
const plain = (snapshot: object): string => `${jsonLine(snapshot)}\n`;
const written = <S extends { sessions: readonly object[] }>(snapshot: S): string => snapshotJsonBytes(snapshot).toString('utf8');

const text = fc.string({ unit: fc.oneof(fc.constantFrom('\u0000', '\u001b', '\u007f', '\u0085', '\u2028', '\u202e', '\u2063', '"', '\\', ','), fc.string({ minLength: 1, maxLength: 1 })), maxLength: 30 });
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
      expect(written({ now: '2', sessions: [same, { key: 'b', state: 'idle' }] })).toBe('{"now":"2","sessions":[{"key":"a","state":"idle"},{"key":"b","state":"idle"}]}\n');
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
});
