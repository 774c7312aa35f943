// Issue 27: the title markers' byte search (a WebAssembly SIMD block search, and the plain one a
// runtime without WebAssembly uses) finds every marker near its line's start that a search for
// every marker finds, and nothing that is not a marker.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BlockFinder } from '../../src/providers/claude/title-search';
import { LINE_START, SEARCH_CHUNK, TITLE_MARKERS, blockFinder, markerHits, moduleBytes, plainFinder } from '../../src/providers/claude/title-search';

/**
 * The reference: every occurrence of every marker wholly inside [from, to), by Buffer.indexOf;
 * `near`: only those ending within LINE_START of their line's start (`from` counting as one).
 */
function expected(data: Buffer, from: number, to: number, near = false): number[] {
  const hits: number[] = [];
  for (const { bytes } of TITLE_MARKERS) {
    for (let at = data.indexOf(bytes, from); at !== -1 && at + bytes.length <= to; at = data.indexOf(bytes, at + 1)) {
      const start = Math.max(from, at === 0 ? 0 : data.lastIndexOf(10, at - 1) + 1);
      if (!near || at + bytes.length - start <= LINE_START) hits.push(at);
    }
  }
  return hits.sort((a, b) => a - b);
}

function found(search: BlockFinder, text: Buffer, from: number, to: number): number[] {
  // Bytes past the text are left from an earlier chunk, as in a real scan: they must never count.
  search.buffer.fill('y"-title"'.repeat(8), text.length, Math.min(search.buffer.length, text.length + 64));
  text.copy(search.buffer, 0);
  const data = search.buffer.subarray(0, text.length);
  return markerHits(search, data, from, to)
    .map((hit) => hit.at)
    .sort((a, b) => a - b);
}

const piece = fc.oneof(
  fc.constantFrom('-title"', '"type":"summary"', '-t', 'y"', '"type":"summar', 'title"', '"summary"', '\n', '{"type":"ai-title","aiTitle":"x"}'),
  fc.string({ unit: fc.constantFrom('a', '-', 't', 'y', '"', 'i', 'l', 'e', 's', 'u', 'm', 'r', ':', '\n'), maxLength: 40 }),
  fc.integer({ min: 0, max: 5000 }).map((length) => 'x'.repeat(length)),
);

describe('issue 27: finding title markers in a chunk', () => {
  it('uses WebAssembly where the runtime has it (Node 20 and later do)', () => {
    expect(blockFinder().buffer.buffer).toBeInstanceOf(ArrayBuffer);
    // A module that fails to compile falls back to the plain search: its memory is whole 64 KB pages, the plain buffer is not.
    expect(blockFinder().buffer.buffer.byteLength % 65536).toBe(0);
    expect(blockFinder().buffer.length).toBeGreaterThanOrEqual(SEARCH_CHUNK);
    expect(typeof WebAssembly).toBe('object');
  });

  it('issue 48: the module assembled from named opcodes (wasm-ops.ts) is valid WebAssembly', () => {
    const pairs = TITLE_MARKERS.map(({ bytes, pairAt }): [number, number] => [bytes[pairAt] ?? 0, bytes[pairAt + 1] ?? 0]);
    expect(WebAssembly.validate(moduleBytes(pairs, LINE_START + 64))).toBe(true);
  });

  it.each([
    ['WebAssembly', blockFinder],
    ['plain', plainFinder],
  ] as const)("the %s search finds every marker near a line's start in any text and window, and nothing else or past its end", (_name, make) => {
    const search = make();
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 60 }), fc.nat(), fc.nat(), (pieces, a, b) => {
        const text = Buffer.from(pieces.join('')).subarray(0, SEARCH_CHUNK);
        const from = text.length === 0 ? 0 : a % (text.length + 1);
        const to = from + (text.length === 0 ? 0 : b % (text.length - from + 1));
        const hits = found(search, text, from, to);
        const all = expected(text, from, to);
        expect(hits.filter((at) => !all.includes(at))).toEqual([]);
        expect(expected(text, from, to, true).filter((at) => !hits.includes(at))).toEqual([]);
      }),
      { numRuns: 400 },
    );
  });

  it('a marker at the very end of a full chunk and one straddling 16-byte blocks are both found', () => {
    const search = blockFinder();
    const text = Buffer.alloc(SEARCH_CHUNK, 'x');
    text.write('"type":"summary"', SEARCH_CHUNK - 16);
    text.write('-title"', 13);
    expect(found(search, text, 0, SEARCH_CHUNK)).toEqual([13, SEARCH_CHUNK - 16]);
  });

  it("a marker at any offset of a run of 64-byte groups is found once, whichever of a group's four blocks it starts or ends in", () => {
    const search = blockFinder();
    for (const { bytes } of TITLE_MARKERS) {
      for (let at = 0; at < 200; at += 1) {
        const text = Buffer.alloc(400, 'x');
        bytes.copy(text, at);
        // A line starts just before it (its type first), or `from` does.
        if (at > 0) text[at - 1] = 10;
        expect(found(search, text, 0, text.length)).toEqual([at]);
        // And from any start before it: the four-block loop begins where it is asked to.
        expect(found(search, text, at % 37, text.length)).toEqual([at]);
      }
    }
  });

  it("a marker after a line of any length is found wherever it ends within LINE_START of its line's start", () => {
    const search = blockFinder();
    for (const { bytes } of TITLE_MARKERS) {
      // Lines long enough that the newline is found by the loop past the window, in groups of every alignment.
      const long = Array.from({ length: 9 }, (_unused, index) => 900 + 61 * index);
      for (const before of [0, 1, 31, 32, 33, 63, 64, 65, 95, 96, 97, 127, 128, 200, 263, 264, 265, ...long, 4093]) {
        for (let at = 0; at + bytes.length <= LINE_START; at += 1) {
          const text = Buffer.alloc(before + 1 + 600, 'x');
          text[before] = 10;
          bytes.copy(text, before + 1 + at);
          expect(found(search, text, 0, text.length)).toEqual([before + 1 + at]);
        }
      }
    }
  });

  it('issue 27: a marker far into a long line is passed over by the WebAssembly search (only groups near a newline are looked at)', () => {
    const search = blockFinder();
    const text = Buffer.alloc(8192, 'x');
    text[1000] = 10;
    // Well past LINE_START of both the chunk's start and the line after the newline: never a title's.
    TITLE_MARKERS[0]?.bytes.copy(text, 600);
    TITLE_MARKERS[1]?.bytes.copy(text, 5000);
    // Near the line's start: found.
    TITLE_MARKERS[0]?.bytes.copy(text, 1010);
    expect(found(search, text, 0, text.length)).toEqual([1010]);
    // The plain search looks everywhere; the scan's line test drops the far ones either way.
    expect(found(plainFinder(), text, 0, text.length)).toEqual([600, 1010, 5000]);
  });
});
