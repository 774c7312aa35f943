// The working trees read for finishes (issue 4): a read that says what the last one said changes
// nothing, so sessions are not derived again for it (issue 27); one a finish needs is stamped anew.
import { describe, expect, it } from 'vitest';
import type { WorkingTree } from '../../../src/engine';
import { defaultSettings, emptyFacts, evaluate } from '../../../src/engine';
import { TreeCache } from '../../../src/main/git/tree-cache';
import { T0, min, sec, session } from '../../engine/build';

const REFRESH = defaultSettings().timings.gitRefresh;

/** A session whose long turn ended at `endedAt`: its finish waits on the working tree of /home/me/app. */
function finishedAt(endedAt: number, now: number): ReturnType<typeof evaluate> {
  const evidence = session({
    turn: { startedAt: endedAt - min(10), endedAt, durationMs: null },
    signal: { kind: 'turn-end', at: endedAt, failed: false, detail: null },
  });
  return evaluate({ sessions: [evidence], facts: emptyFacts(), settings: defaultSettings(), now, onScreen: null });
}

describe('issue 27: TreeCache', () => {
  it('a read every gitRefresh that says the same keeps the very tree (no re-evaluation); another answer, or a finish after the stamp, changes it', async () => {
    let fingerprint = 'f1';
    const reads: number[] = [];
    const cache = new TreeCache(async (_cwd, now): Promise<WorkingTree> => {
      reads.push(now);
      return { kind: 'read', at: now, fingerprint, changedFiles: 2 };
    });
    const first = finishedAt(T0 - sec(5), T0);
    expect(first.wantingTrees).toEqual([first.snapshot.sessions[0]?.key]);

    expect(await cache.refresh(first, T0, REFRESH)).toBe(true);
    const tree = cache.get('/home/me/app');
    expect(tree?.at).toBe(T0);
    expect(cache.version).toBe(1);
    // Within gitRefresh, with the stamp after the finish: git is not asked.
    expect(await cache.refresh(first, T0 + sec(1), REFRESH)).toBe(false);
    expect(reads).toEqual([T0]);

    // gitRefresh later, the same answer: asked, and nothing changed.
    expect(await cache.refresh(first, T0 + REFRESH, REFRESH)).toBe(false);
    expect(reads).toEqual([T0, T0 + REFRESH]);
    expect(cache.get('/home/me/app')).toBe(tree);
    expect(cache.version).toBe(1);
    // The read moved the wait on: not asked again at once.
    expect(await cache.refresh(first, T0 + REFRESH + sec(1), REFRESH)).toBe(false);
    expect(reads).toHaveLength(2);

    // Another answer: a new tree, stamped with its read.
    fingerprint = 'f2';
    expect(await cache.refresh(first, T0 + 2 * REFRESH, REFRESH)).toBe(true);
    expect(cache.get('/home/me/app')).toMatchObject({ fingerprint: 'f2', at: T0 + 2 * REFRESH });
    expect(cache.version).toBe(2);

    // A finish that began after the stamp, within gitRefresh of the last read: asked now, and the
    // same answer is stamped anew (the engine tells the finish only once git was asked after it).
    const later = T0 + 2 * REFRESH + sec(3);
    const second = finishedAt(later - sec(1), later);
    expect(await cache.refresh(second, later, REFRESH)).toBe(true);
    expect(cache.get('/home/me/app')).toMatchObject({ fingerprint: 'f2', at: later });
    expect(reads.at(-1)).toBe(later);
  });

  it('issue 51: a beat that derived nothing again does not walk the wanting sessions; new derivations are walked, and their newer finish read', async () => {
    const reads: number[] = [];
    const cache = new TreeCache(async (_cwd, now): Promise<WorkingTree> => {
      reads.push(now);
      return { kind: 'read', at: now, fingerprint: 'f1', changedFiles: 2 };
    });
    const first = finishedAt(T0 - sec(5), T0);
    let looked = 0;
    const derived = first.derived;
    // The same derivations, counted: every look at one is a wanting session walked.
    const counted = {
      ...first,
      derived: new Proxy(derived, {
        get: (target, name) =>
          name === 'get'
            ? (key: string) => {
                looked += 1;
                return target.get(key);
              }
            : Reflect.get(target, name, target),
      }),
    };
    expect(await cache.refresh(counted, T0, REFRESH)).toBe(true);
    expect(looked).toBe(1);
    for (let beat = 1; beat <= 5; beat += 1) expect(await cache.refresh(counted, T0 + sec(beat), REFRESH)).toBe(false);
    expect(looked).toBe(1);
    // gitRefresh later, still the same derivations: git is asked again all the same.
    expect(await cache.refresh(counted, T0 + REFRESH, REFRESH)).toBe(false);
    expect(reads).toEqual([T0, T0 + REFRESH]);
    // A finish after the last stamp comes with new derivations: walked, and read at once.
    const later = T0 + REFRESH + sec(3);
    expect(await cache.refresh(finishedAt(later - sec(1), later), later, REFRESH)).toBe(true);
    expect(reads.at(-1)).toBe(later);
  });
});
