// What a reading keeps of a long text is the cut text alone (issue 51): in V8 a slice of a string
// (`slice`, `trim`, `split`) points into the whole string, and a string made with `${a}${b}` into
// its parts, so a kept cut held what it was cut from for as long as its session was listed.
import { describe, expect, it } from 'vitest';
import { cutLine, cutText } from '../../src/engine/text-cut';
import { fullCollector } from '../../src/main/runtime/heap-settle';

const MB = 1024 * 1024;
/** Long texts in the first case, and each one's length: 40 × 400 KB is 16 MB kept if the cuts hold their sources. */
const TEXTS = 40;
const TEXT_UNITS = 400 * 1024;
/** Texts in the second case: enough that a few hundred bytes a cut stand out of the heap's own movement. */
const HEADS = 4000;

/** The runtime's own full collection (the heap settle's), which a test must have. */
function collector(): () => void {
  const gc = fullCollector();
  if (gc === null) throw new Error('no collector to call');
  return gc;
}

/** The heap's growth, after a full collection, while `kept` holds what `make` returned `count` times. */
function heapKeptBy<T>(count: number, make: (index: number) => T): { grown: number; kept: T[] } {
  const gc = collector();
  const kept: T[] = new Array<T>(count);
  gc();
  const before = process.memoryUsage().heapUsed;
  for (let index = 0; index < count; index += 1) kept[index] = make(index);
  gc();
  return { grown: process.memoryUsage().heapUsed - before, kept };
}

/** One line of prose, single spaces only (nothing to fold), `units` long; unique per index. */
const prose = (index: number, units: number): string => `${index} ${'please look at the parser again '.repeat(Math.ceil(units / 32))}`.slice(0, units);

describe('a cut text holds only its own characters (issue 51)', () => {
  it('cutText of a long text, and cutLine of a short slice of one, keep none of the long text', () => {
    const { grown, kept } = heapKeptBy(TEXTS, (index) => {
      const text = prose(index, TEXT_UNITS);
      // A short line split from a long message: whole after folding, still a slice of the message.
      return [cutText(text, 100), cutLine(text.slice(1, 90), 100), cutLine(`${text.slice(0, 90)}  `, 100)];
    });
    expect(kept[3]).toEqual([`${prose(3, 99)}…`, prose(3, 90).slice(1).trim(), prose(3, 90).trim()]);
    // Before: 16 MB, the long texts themselves.
    expect(grown).toBeLessThan(3 * MB);
  });

  it('cutLine of a long one-line text keeps its 100 characters, not the head it looked at', () => {
    const { grown, kept } = heapKeptBy(HEADS, (index) => cutLine(prose(index, 4096), 100));
    expect(kept[7]).toBe(`${prose(7, 99)}…`);
    // Before: ~920 bytes a cut (the 417 looked-at characters as one string of two-byte units,
    // since "…" is one, and the two strings pointing into it); now the cut's 100 units, ~216 bytes.
    expect(grown / HEADS).toBeLessThan(500);
  });
});
