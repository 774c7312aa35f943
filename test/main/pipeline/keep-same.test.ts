// The pipeline keeps last time's evidence object for a session whose evidence did not change, so
// the engine reuses its row (issue 14: an append re-derives one row, not every row).
import { describe, expect, it } from 'vitest';
import type { SessionEvidence } from '../../../src/engine';
import { SameEvidence } from '../../../src/main/pipeline/keep-same';
import { plainEqual } from '../../../src/engine';
import { at, session, tool, toolCall } from '../../engine/build';

/** A session waiting on a tool call, as the engine tests build one. */
const evidence = (id: string, offset: number, detail = 'Bash: npm test'): SessionEvidence =>
  session({ id, lastRecordAt: at(offset), signal: toolCall(offset, [{ ...tool('Bash'), detail }]) });

describe('evidence kept when equal (issue 14)', () => {
  it('a session rebuilt equal keeps its old object; one that changed, however deep, takes the new', () => {
    const same = new SameEvidence();
    const first = [evidence('a', 1000), evidence('b', 2000)];
    expect(same.keep(first)).toEqual(first);
    const rebuilt = [evidence('a', 1000), evidence('b', 2000, 'Bash: npm publish')];
    const kept = same.keep(rebuilt);
    expect(kept[0]).toBe(first[0]);
    expect(kept[1]).toBe(rebuilt[1]);
    // A session gone and back is new; the kept set follows the latest call.
    expect(same.keep([evidence('b', 2000, 'Bash: npm publish')])[0]).toBe(rebuilt[1]);
    expect(same.keep([evidence('a', 1000)])[0]).not.toBe(first[0]);
  });

  it('plain equality: records, arrays, nulls; a missing key, an extra element or a Map is a difference', () => {
    expect(plainEqual({ a: [1, { b: null }] }, { a: [1, { b: null }] })).toBe(true);
    expect(plainEqual({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(plainEqual({ a: undefined }, { b: undefined })).toBe(false);
    expect(plainEqual([1, 2], [1, 2, 3])).toBe(false);
    expect(plainEqual([], {})).toBe(false);
    expect(plainEqual(new Map([[1, 2]]), new Map())).toBe(false);
    expect(plainEqual(null, {})).toBe(false);
  });
});
