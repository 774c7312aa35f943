// Issue 27: a large JSON line is made safe by a byte search; its bytes are exactly jsonLine's.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonLine, jsonLineBytes } from '../../../src/main/text/terminal-text';

const plain = (value: unknown): Buffer => Buffer.from(`${jsonLine(value)}\n`);

// Each unsafe range with its neighbours on both sides, characters whose UTF-8 shares a lead byte with them, astral and lone surrogates.
const near = [
  '\u007e',
  '\u007f',
  '\u0080',
  '\u009f',
  '\u00a0',
  '\u00e9',
  '\u2026',
  '\u2027',
  '\u2028',
  '\u202e',
  '\u202f',
  '\u2065',
  '\u2066',
  '\u2069',
  '\u206a',
  '\u20ac',
  '\ud83d\ude00',
  '\ud800',
  '\u001b',
  '\n',
];

describe('issue 27: jsonLineBytes', () => {
  it('gives jsonLine and a newline, byte for byte, for every character of the Basic Multilingual Plane alone', () => {
    for (let code = 0; code <= 0xffff; code += 1) {
      const value = { title: `a${String.fromCharCode(code)}b` };
      const bytes = jsonLineBytes(value);
      if (!bytes.equals(plain(value))) expect.fail(`U+${code.toString(16)}: ${bytes.toString()} differs from ${plain(value).toString()}`);
    }
  });

  it('gives jsonLine and a newline for any text made of characters near the unsafe ones', () => {
    const text = fc.array(fc.oneof(fc.constantFrom(...near), fc.string({ maxLength: 3 })), { maxLength: 40 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(fc.array(fc.record({ title: text, cwd: fc.option(text) }), { maxLength: 8 }), (rows) => {
        expect(jsonLineBytes({ sessions: rows }).equals(plain({ sessions: rows }))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('escapes what jsonLine escapes (a C1 control, a line separator, a bidi isolate) and leaves an ellipsis as it is', () => {
    expect(jsonLineBytes({ t: 'x\u0085y\u2028z\u2067…' }).toString()).toBe('{"t":"x\\u0085y\\u2028z\\u2067…"}\n');
  });
});
