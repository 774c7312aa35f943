// Issue 16: a quiet digest names each session once, with its newest claim, in the order of its
// keys: a notification action pairs the two by position. What is held is kept in LOOKOUT_HOME
// (0600, atomic) until told, bounded in age and count; a bad file is kept aside and said.
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { QuietHold } from '../../../src/main/notify/quiet-hold';
import { HELD_MAX, HELD_MAX_AGE_MS, HeldStore, heldPath } from '../../../src/main/store/held-store';

const NOW = Date.parse('2026-11-29T23:00:00.000Z');
const everything = (): boolean => true;
const base = mkdtempSync(join(tmpdir(), 'lookout-quiet-hold-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
let homes = 0;
function store(problems: string[] = []): { home: string; store: HeldStore } {
  homes += 1;
  const home = join(base, `home-${homes}`);
  return { home, store: new HeldStore(home, (line) => problems.push(line)) };
}
const needsYou = (name: string, claim = 1) => ({
  claimIds: [`${name}|needs-you|${claim}`],
  keys: [`claude:${name}`],
  title: `Claude · ${name} needs you`,
  body: 'asks: one?',
});

describe('the quiet digest', () => {
  it('one claim per session, its newest, beside its key', () => {
    const hold = new QuietHold(null);
    hold.hold({ claimIds: ['A|needs-you|1'], keys: ['claude:A'], title: 'Claude · a needs you', body: 'asks: one?' }, NOW);
    hold.hold({ claimIds: ['A|needs-you|2', 'B|failed|3'], keys: ['claude:A', 'claude:B'], title: '2 sessions want you (1 need you)', body: '' }, NOW);
    const digest = hold.release(NOW, everything);
    expect(digest?.keys).toEqual(['claude:A', 'claude:B']);
    expect(digest?.claimIds).toEqual(['A|needs-you|2', 'B|failed|3']);
    expect(digest?.title).toBe('While quiet: 2 sessions wanted you');
    expect(hold.release(NOW, everything)).toBeNull();
  });

  it('what one run held, the next tells (once); the file is private and gone once told', () => {
    const { home, store: first } = store();
    new QuietHold(first).hold(needsYou('A'), NOW);
    const path = heldPath(home);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(home).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({ schemaVersion: 1, held: [{ keys: ['claude:A'], at: '2026-11-29T23:00:00.000Z' }] });
    const next = new QuietHold(new HeldStore(home, () => undefined));
    next.restore(NOW + 60_000);
    next.hold(needsYou('B'), NOW + 60_000);
    const digest = next.release(NOW + 120_000, everything);
    expect(digest?.keys).toEqual(['claude:A', 'claude:B']);
    expect(digest?.body).toBe('Claude · A needs you: asks: one?\nClaude · B needs you: asks: one?');
    expect(readdirSync(home).filter((name) => name.startsWith('quiet-held'))).toEqual([]);
    expect(next.release(NOW + 120_000, everything)).toBeNull();
  });

  it('sessions no longer there are not told, nor what was held longer than a day; the count is capped', () => {
    const { store: kept } = store();
    const hold = new QuietHold(kept);
    hold.hold(needsYou('old'), NOW - HELD_MAX_AGE_MS - 1);
    hold.hold(needsYou('gone'), NOW);
    hold.hold(needsYou('here'), NOW);
    expect(hold.release(NOW, (key) => key !== 'claude:gone')?.keys).toEqual(['claude:here']);
    // The same bound in memory (a home that cannot be written), without a write per notification.
    const memory = new QuietHold(null);
    for (let index = 0; index < HELD_MAX + 10; index += 1) memory.hold(needsYou(`s${index}`), NOW + index);
    const digest = memory.release(NOW + HELD_MAX + 10, everything);
    expect(digest?.keys).toHaveLength(HELD_MAX);
    expect(digest?.keys[0]).toBe('claude:s10');
  });

  it('a held file that cannot be used is kept aside and said, and holding goes on', () => {
    const problems: string[] = [];
    const { home, store: bad } = store(problems);
    new QuietHold(bad).hold(needsYou('A'), NOW);
    writeFileSync(heldPath(home), '{"schemaVersion": 1, "held": [{"at": "soon"');
    const hold = new QuietHold(new HeldStore(home, (line) => problems.push(line)));
    hold.restore(NOW);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('kept aside as');
    expect(readdirSync(home).some((name) => name.startsWith('quiet-held.json.corrupt-'))).toBe(true);
    hold.hold(needsYou('B'), NOW);
    expect(hold.release(NOW, everything)?.keys).toEqual(['claude:B']);
  });
});
