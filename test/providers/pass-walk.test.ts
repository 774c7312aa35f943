// Issue 27: the background pass over Claude transcripts' middles walks the list of transcripts
// once, going on from where each step stopped, and starts it over only when a transcript is new,
// changed or gone; a /rename in a middle is learned either way.
// Transcript shapes: Claude Code 2.1.143 (agent-formats §1).
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SessionIndexStore } from '../../src/main/store/session-index-store';
import { ClaudeProvider } from '../../src/providers/claude/provider';
import { indexCase } from '../main/index-case';

const { base, ID, prompt, answer, rename } = indexCase('lookout-pass-walk-');
const T0 = Date.parse('2026-12-01T10:00:00.000Z');

/** Finished turns of ~4 KB each, `count` of them, from `at`. */
function turns(count: number, at: number): string {
  let text = '';
  for (let index = 0; index < count; index += 1) text += prompt(at + index * 2000, `step ${index}`) + answer(at + index * 2000 + 1000, 'y'.repeat(4000));
  return text;
}

/** A session opening with "first prompt", `before` turns, a /rename to `title`, then `after` turns; `id` names its file. */
function session(name: string, before: number, after: number, title = 'payments refactor', id = ID): { root: string; path: string; now: number } {
  const root = join(base, name);
  const project = join(root, 'projects', '-home-me-app');
  mkdirSync(project, { recursive: true });
  const text = (
    prompt(T0, 'first prompt') +
    answer(T0 + 1000, 'ok') +
    turns(before, T0 + 2000) +
    rename(title) +
    turns(after, T0 + 2000 + before * 2000)
  ).replaceAll(ID, id);
  const path = join(project, `${id}.jsonl`);
  // Written aside and moved in: a replaced file is another inode, as an editor or a restore leaves it.
  writeFileSync(`${path}.new`, text);
  renameSync(`${path}.new`, path);
  return { root, path, now: T0 + (before + after + 10) * 2000 };
}

describe("the background pass's walk over transcripts (issue 27)", () => {
  it('steps of 100 KB over three ~345 KB transcripts go on from where each stopped; a transcript replaced after the pass is scanned again', async () => {
    const ids = ['c1a00000-0000-4000-8000-0000000000c1', 'c1a00000-0000-4000-8000-0000000000c2', 'c1a00000-0000-4000-8000-0000000000c3'];
    const made = ids.map((id, index) => session('walk', 40, 40, `title ${index}`, id));
    const root = join(base, 'walk');
    const now = made[0]?.now ?? T0;
    const index = new SessionIndexStore(
      join(base, 'walk-home'),
      () => now,
      () => undefined,
    );
    try {
      const provider = new ClaudeProvider(root, undefined, true, index);
      const titles = async () => (await provider.sync(now)).map((row) => row.title).sort();
      expect(await titles()).toEqual(['first prompt', 'first prompt', 'first prompt']);
      let steps = 0;
      while (provider.backgroundStep(100 * 1024).worked) steps += 1;
      // ~1 MB of middles in 100 KB steps: each step went on where the last stopped, none read twice.
      expect(steps).toBeGreaterThanOrEqual(10);
      expect(steps).toBeLessThanOrEqual(12);
      expect(await titles()).toEqual(['title 0', 'title 1', 'title 2']);
      // Replaced (another inode) once the pass is over: read afresh, and its middle scanned again.
      const again = session('walk', 40, 40, 'title 1, renamed', ids[1]);
      expect((await provider.sync(now, new Set([again.path]))).map((row) => row.title).sort()).toEqual(['first prompt', 'title 0', 'title 2']);
      steps = 0;
      while (provider.backgroundStep(100 * 1024).worked) steps += 1;
      expect(steps).toBeGreaterThanOrEqual(3);
      expect(steps).toBeLessThanOrEqual(4);
      expect(await titles()).toEqual(['title 0', 'title 1, renamed', 'title 2']);
    } finally {
      index.dispose();
    }
  });
});
