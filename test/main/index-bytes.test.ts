// The session index's bytes are made of each entry's encoding kept from the last write (issue 27):
// they must be exactly the escaped JSON of the whole file, after any entries were replaced.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { IndexFile } from '../../src/main/store/session-index-store';
import { asciiJson, indexBytes } from '../../src/main/store/session-index-store';

const text = fc.string({ unit: fc.oneof(fc.constantFrom('a', '"', '\\', '\n', '…', '\u007f', '\u2028', 'é', '日'), fc.constantFrom('🚀', '\ud800')), maxLength: 12 });
const entry = fc.record({
  identity: fc.record({ dev: fc.nat(), ino: fc.nat(), size: fc.nat(), mtimeMs: fc.double({ noNaN: true, noDefaultInfinity: true }), head: fc.string({ unit: fc.constantFrom('0', 'a', 'f'), maxLength: 8 }) }),
  head: fc.option(fc.record({ firstPrompt: text, cwd: text }), { nil: null }),
  middle: fc.option(fc.record({ scannedTo: fc.nat(), customTitle: fc.option(text, { nil: null }), summaryTitle: fc.option(text, { nil: null }) }), { nil: null }),
});
const providers = fc.dictionary(fc.constantFrom('claude', 'codex', 'gemini'), fc.dictionary(text, entry, { maxKeys: 5 }), { maxKeys: 3 });

describe('issue 27: the index written from kept entry encodings', () => {
  it('is byte for byte the escaped JSON of the file and a newline, all ASCII, after any entries are replaced', () => {
    fc.assert(
      fc.property(providers, fc.array(fc.tuple(fc.nat(), entry), { maxLength: 6 }), (initial, replacements) => {
        const file: IndexFile = { version: 2, providers: initial };
        const expected = (): Buffer => Buffer.from(`${asciiJson(file)}\n`);
        expect(indexBytes(file).equals(expected())).toBe(true);
        // Replaced entries (new objects, as the store does) are encoded afresh; the rest are reused.
        const paths = Object.entries(file.providers).flatMap(([name, files]) => Object.keys(files).map((path) => [name, path] as const));
        for (const [pick, next] of replacements) {
          const target = paths[pick % Math.max(1, paths.length)];
          if (target === undefined) break;
          const files = file.providers[target[0]];
          if (files !== undefined) files[target[1]] = next;
        }
        const bytes = indexBytes(file);
        expect(bytes.equals(expected())).toBe(true);
        expect(bytes.every((byte) => byte < 0x7f)).toBe(true);
        expect(JSON.parse(bytes.toString('latin1'))).toEqual(JSON.parse(JSON.stringify(file)));
      }),
      { numRuns: 300 },
    );
  });
});
