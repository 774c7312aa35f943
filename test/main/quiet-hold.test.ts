// Issue 16: a quiet digest names each session once, with its newest claim, in the order of its
// keys: a notification action pairs the two by position.
import { describe, expect, it } from 'vitest';
import { QuietHold } from '../../src/main/notify/quiet-hold';

describe('the quiet digest', () => {
  it('one claim per session, its newest, beside its key', () => {
    const hold = new QuietHold();
    hold.hold({ claimIds: ['A|needs-you|1'], keys: ['claude:A'], title: 'Claude · a needs you', body: 'asks: one?' });
    hold.hold({ claimIds: ['A|needs-you|2', 'B|failed|3'], keys: ['claude:A', 'claude:B'], title: '2 sessions want you (1 need you)', body: '' });
    const digest = hold.release();
    expect(digest?.keys).toEqual(['claude:A', 'claude:B']);
    expect(digest?.claimIds).toEqual(['A|needs-you|2', 'B|failed|3']);
    expect(digest?.title).toBe('While quiet: 2 sessions wanted you');
    expect(hold.release()).toBeNull();
  });
});
