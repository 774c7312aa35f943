// The session index's bytes (issue 27): the file's JSON with every UTF-16 unit past ASCII written
// as \uXXXX, however many distinct such characters it holds, byte for byte.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FileEntry } from '../../../src/providers/session-index';
import type { IndexFile } from '../../../src/main/store/session-index-store';
import { SessionIndexStore, indexBytes, indexPath } from '../../../src/main/store/session-index-store';

/** The plain way: one callback per character past ASCII. */
const reference = (value: unknown): Buffer =>
  Buffer.from(`${JSON.stringify(value).replace(/[\u007f-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)}\n`);

// Few distinct characters past ASCII (the usual index), and many (CJK titles): both ways of escaping.
const text = fc.oneof(
  fc.string({ unit: fc.oneof(fc.constantFrom('a', '"', '\\', '\n', '…', '\u007f', '\u2028', 'é', '日'), fc.constantFrom('🚀', '\ud800')), maxLength: 12 }),
  fc.string({
    unit: fc.oneof(
      fc.constant('a'),
      fc.integer({ min: 0x7f, max: 0xffff }).map((code) => String.fromCharCode(code)),
    ),
    maxLength: 40,
  }),
);
const entry = fc.record({
  identity: fc.record({
    dev: fc.nat(),
    ino: fc.nat(),
    size: fc.nat(),
    mtimeMs: fc.double({ noNaN: true, noDefaultInfinity: true }),
    head: fc.string({ unit: fc.constantFrom('0', 'a', 'f'), maxLength: 8 }),
  }),
  head: fc.option(fc.record({ firstPrompt: text, cwd: text }), { nil: null }),
  middle: fc.option(fc.record({ scannedTo: fc.nat(), customTitle: fc.option(text, { nil: null }), summaryTitle: fc.option(text, { nil: null }) }), {
    nil: null,
  }),
});
const providers = fc.dictionary(fc.constantFrom('claude', 'codex', 'gemini'), fc.dictionary(text, entry, { maxKeys: 5 }), { maxKeys: 3 });

describe('issue 27: the index file written all ASCII', () => {
  it('is byte for byte the escaped JSON of the file and a newline, all ASCII, before and after entries are replaced', () => {
    fc.assert(
      fc.property(providers, fc.array(fc.tuple(fc.nat(), entry), { maxLength: 6 }), (initial, replacements) => {
        const file: IndexFile = { version: 2, providers: initial };
        const expected = (): Buffer => reference(file);
        expect(indexBytes(file).equals(expected())).toBe(true);
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

  it('is the same when its text spans many pieces, with characters past ASCII (surrogate pairs too) across their ends', () => {
    // Prompts of every length from 1 to 400 units put the pieces' ends (every 16 K units) at every
    // kind of character: ASCII, an escaped one, either half of a pair.
    const units = ['a', '…', '日', '🚀', '"', '\\'];
    const files: Record<string, unknown> = {};
    for (let index = 0; index < 400; index += 1) {
      const prompt = Array.from({ length: index + 1 }, (_, at) => units[(at * 7 + index) % units.length]).join('');
      files[`/p/${index}.jsonl`] = {
        identity: { dev: 1, ino: index, size: index * 1000, mtimeMs: index + 0.5, head: 'ab' },
        head: { firstPrompt: prompt },
        middle: null,
      };
    }
    const file: IndexFile = { version: 2, providers: { claude: files } };
    const bytes = indexBytes(file);
    expect(JSON.stringify(file).length).toBeGreaterThan(4 * 16 * 1024);
    expect(bytes.equals(reference(file))).toBe(true);
    expect(JSON.parse(bytes.toString('latin1'))).toEqual(file);
  });

  it('is what the store writes, in pieces, to a private file', () => {
    const home = mkdtempSync(join(tmpdir(), 'lookout-index-bytes-'));
    try {
      const problems: string[] = [];
      const store = new SessionIndexStore(
        home,
        () => 0,
        (line) => problems.push(line),
      );
      const files: Record<string, FileEntry> = {};
      for (let index = 0; index < 300; index += 1) {
        const entry: FileEntry = {
          identity: { dev: 1, ino: index, size: 10, mtimeMs: 1, head: 'ab' },
          head: { firstPrompt: `${'x'.repeat(index)}… 日本` },
          middle: null,
          tail: null,
        };
        files[`/p/${index}.jsonl`] = entry;
        store.put('claude', `/p/${index}.jsonl`, entry);
      }
      store.flush();
      const written = readFileSync(indexPath(home));
      expect(written.length).toBeGreaterThan(2 * 16 * 1024);
      expect(written.equals(indexBytes({ version: 2, providers: { claude: files } }))).toBe(true);
      expect(statSync(indexPath(home)).mode & 0o777).toBe(0o600);
      expect(problems).toEqual([]);
      store.dispose();
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
