// A one-shot command reads the working trees a finish may need before it derives anything, so
// each session is derived once (issue 27), and a long turn that left changes reads as ready for review.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { evaluateFromDisk } from '../../../src/main/commands/one-shot';
import { Pipeline } from '../../../src/main/pipeline/pipeline';
import { fixtureHomes, fixturesInRepo } from '../fixture-home';

const { base, home } = fixtureHomes('lookout-one-shot-trees-');
const AT = Date.parse('2026-11-29T12:01:10.000Z');

/** A fixture (the long-finish one unless named), its folder made a git repository with one file changed. */
function longFinishInRepo(fixture = 'long-finish'): Record<string, string> {
  const env = home([fixture]);
  fixturesInRepo(env, base);
  return env;
}

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe('issue 27: a one-shot evaluation and the working trees', () => {
  it('R40 a long turn that left changes reads ready for review, from one evaluation (the tree was read before deriving)', async () => {
    for (const [name, value] of Object.entries(longFinishInRepo())) vi.stubEnv(name, value);
    const evaluations = vi.spyOn(Pipeline.prototype, 'evaluate');
    const { evaluation } = await evaluateFromDisk(AT);
    const row = evaluation.snapshot.sessions[0];
    expect(row?.claim).toMatchObject({ kind: 'ready-for-review', detail: 'finished in 1m, 1 file changed' });
    expect(evaluations).toHaveBeenCalledTimes(1);
  });

  it('a session visited after its finish wants no tree, so none is read for it', async () => {
    const env = longFinishInRepo();
    for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
    const reads = vi.spyOn(Pipeline.prototype, 'readTreesAhead');
    const first = await evaluateFromDisk(AT);
    const row = first.evaluation.snapshot.sessions[0];
    await first.writer.visit(row?.key ?? '', row?.cwd ?? null, AT);
    const trees = vi.spyOn((await import('../../../src/main/git/tree-cache')).TreeCache.prototype, 'readAhead');
    const { evaluation } = await evaluateFromDisk(AT + 1000);
    expect(reads).toHaveBeenCalledTimes(2);
    expect(trees.mock.calls[0]?.[0]).toEqual(new Set());
    expect(evaluation.snapshot.sessions[0]?.claim).toBeNull();
  });

  it('a turn still running reads no tree ahead (a git status per command would cost more than it saves)', async () => {
    for (const [name, value] of Object.entries(longFinishInRepo('fresh-tool'))) vi.stubEnv(name, value);
    const trees = vi.spyOn((await import('../../../src/main/git/tree-cache')).TreeCache.prototype, 'readAhead');
    const { evaluation } = await evaluateFromDisk(Date.parse('2026-11-29T12:00:03.000Z'));
    expect(evaluation.snapshot.sessions[0]?.observed.state).toBe('running');
    expect(trees.mock.calls.map(([folders]) => [...folders])).toEqual([[]]);
  });
});
