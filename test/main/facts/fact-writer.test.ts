// The fact writer: one writer for every user fact; a store that cannot be written is said once.
import { describe, expect, it } from 'vitest';
import { emptyFacts } from '../../../src/engine';
import { FactWriter } from '../../../src/main/facts/fact-writer';
import { FactStore } from '../../../src/main/store/facts-store';

describe('the fact writer', () => {
  it('a store that cannot be written is reported once while it stays so, not at every evaluation', () => {
    const problems: string[] = [];
    // Under /dev/null no folder can be made: every write fails.
    const writer = new FactWriter(new FactStore('/dev/null/lookout'), emptyFacts(), (line) => problems.push(line));
    const rule = { key: 'claude:a', ruleId: 'outdated-after-7d', version: 1, set: 'outdated' as const, at: 0, lastActivityAt: null };
    for (let round = 0; round < 5; round += 1) writer.recordRules([rule], 0);
    writer.recordNotified(['claim-1'], 0);
    expect(problems.filter((line) => line.includes('could not save to the store'))).toHaveLength(1);
    // A user action that cannot be saved fails loudly instead (the caller says so).
    expect(() => writer.mute('claude:a', null, 0)).toThrow();
  });
});
