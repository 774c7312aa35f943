// One line cut to a length (issue 25 item 2; issue 27: only what needs folding is folded, only the
// head of a long text is looked at): the result is the whole text folded and cut, whatever it holds.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cutLine, cutText } from '../../src/engine/text-cut';
import { oneLine } from '../../src/providers/jsonl/parse-record';

/** The plain way: fold every run of white space in the whole text, trim, cut. */
const folded = (text: string): string => text.replace(/\s+/g, ' ').trim();

// Plain spaces most of all, and every other kind of white space JavaScript folds, and a character of two units.
const piece = fc.constantFrom('a', 'b', ' ', ' ', ' ', '  ', '\n', '\t', '\r\n', '\u00a0', '\u2028', '\ufeff', '😀', 'é');
const text = (minLength: number, maxLength: number) => fc.array(piece, { minLength, maxLength }).map((parts) => parts.join(''));

describe('cutLine', () => {
  it('is the whole text folded and cut when the text is short enough to look at whole', () => {
    fc.assert(
      fc.property(text(0, 60), fc.integer({ min: 2, max: 40 }), (line, max) => {
        expect(cutLine(line, max)).toBe(cutText(folded(line), max));
      }),
      { numRuns: 3000 },
    );
  });

  it('of a long text: at most max units, a prefix of the folded text, ending in "…"', () => {
    fc.assert(
      fc.property(text(100, 300), fc.integer({ min: 2, max: 20 }), (line, max) => {
        // 100 pieces make at least 100 units: past the head of max * 4 + 16.
        const cut = cutLine(line, max);
        expect(cut.length).toBeLessThanOrEqual(max);
        expect(cut.endsWith('…')).toBe(true);
        expect(folded(line).startsWith(cut.slice(0, -1))).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('folds a line whose only white space is not a plain space', () => {
    expect(cutLine('one\ntwo\tthree\u00a0four', 100)).toBe('one two three four');
    expect(cutLine('  one  two  ', 100)).toBe('one two');
  });

  it('says a long text goes on even when its folded head is exactly max long', () => {
    const max = 10;
    // The head (max * 4 + 16 units) folds to exactly `max` units; the text goes on after it.
    const line = `${'a'.repeat(max - 2)}${' '.repeat(max * 4 + 16 - max + 1)}b${'c'.repeat(100)}`;
    expect(cutLine(line, max)).toBe(cutText(folded(line), max));
    expect(cutLine(line, max)).toBe(`${'a'.repeat(max - 2)} …`);
  });
});

describe('oneLine', () => {
  it('looks at the head of a pasted megabyte only, and cuts it as cutLine does', () => {
    const pasted = `error: ${'x '.repeat(500_000)}`;
    expect(oneLine(pasted, 100)).toBe(cutText(folded(pasted), 100));
    expect(oneLine('  fix\n\nthe   tests ')).toBe('fix the tests');
  });
});
