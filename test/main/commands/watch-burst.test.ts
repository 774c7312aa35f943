// Issue 11 item 14: no event is lost between the watcher and the reader. After a burst of
// appends across many files (and truncate/replace churn), the snapshot comes right without the
// 30 s rescan: the rescan is turned off here, so only the runtime's own settling can do it.
import { appendFileSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Snapshot } from '../../../src/engine';
import { WatchProcess } from '../watch-process';

const dir = mkdtempSync(join(tmpdir(), 'lookout-burst-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const id = (index: number): string => `b0000000-0000-4000-8000-${String(index).padStart(12, '0')}`;
/** A Claude Code 2.1.143-shaped record; `question` makes it ask (awaiting-input). */
function record(index: number, at: string, question: string | null): string {
  const base = { type: 'assistant', sessionId: id(index), cwd: '/home/me/app', version: '2.1.143', timestamp: at, uuid: `u-${index}-${at}` };
  const content =
    question === null
      ? [{ type: 'text', text: 'working on it' }]
      : [{ type: 'tool_use', id: `toolu_${index}`, name: 'AskUserQuestion', input: { questions: [{ question }] } }];
  return `${JSON.stringify({ ...base, message: { role: 'assistant', content, stop_reason: question === null ? null : 'tool_use' } })}\n`;
}
const asks = (snapshot: Snapshot, index: number): string | null => snapshot.sessions.find((row) => row.sessionId === id(index))?.observed.detail ?? null;

describe('watch under bursts', () => {
  it.each([
    [200, 'and replace churn'],
    // Below the size at which a batch counts as a burst: the per-file re-read alone must do it.
    [30, 'in a small batch'],
  ])('after 100 rounds of appends across %i files (%s), every row is right with the rescan off', async (FILES, _label) => {
    const project = join(dir, `run-${FILES}`, 'claude', 'projects', '-home-me-app');
    mkdirSync(project, { recursive: true });
    const root = join(dir, `run-${FILES}`);
    mkdirSync(join(root, 'claude', 'sessions'), { recursive: true });
    const started = new Date().toISOString();
    for (let index = 0; index < FILES; index += 1)
      writeFileSync(
        join(project, `${id(index)}.jsonl`),
        `${JSON.stringify({ type: 'user', sessionId: id(index), cwd: '/home/me/app', timestamp: started, message: { role: 'user', content: 'go' } })}\n`,
      );
    const watch = new WatchProcess(['--all'], {
      HOME: root,
      CLAUDE_CONFIG_DIR: join(root, 'claude'),
      CODEX_HOME: join(root, 'codex'),
      LOOKOUT_HOME: join(root, 'home'),
      LOOKOUT_RESCAN_MS: String(3_600_000),
    });
    try {
      await watch.until((snapshot) => snapshot.sessions.length === FILES, 30_000);
      // The burst: 100 rounds over every file, paced so the runtime reads while the writing goes on
      // (the pause only spreads the writes out; nothing is asserted about time).
      for (let round = 0; round < 100; round += 1) {
        const at = new Date().toISOString();
        for (let index = 0; index < FILES; index += 1) appendFileSync(join(project, `${id(index)}.jsonl`), record(index, at, null));
        await new Promise((resolve) => setTimeout(resolve, 45));
      }
      // Churn: some files are replaced whole (a new inode), some truncated and rewritten.
      for (let index = 0; index < Math.min(20, FILES); index += 1) {
        const path = join(project, `${id(index)}.jsonl`);
        const at = new Date().toISOString();
        if (index % 2 === 0) {
          writeFileSync(`${path}.tmp`, record(index, at, null));
          renameSync(`${path}.tmp`, path);
        } else writeFileSync(path, record(index, at, null));
      }
      await new Promise((resolve) => setTimeout(resolve, 45));
      // The last word of every file: a question only that file asks.
      const at = new Date().toISOString();
      for (let index = 0; index < FILES; index += 1) appendFileSync(join(project, `${id(index)}.jsonl`), record(index, at, `Question ${index}?`));
      const right = await watch.until(
        (snapshot) => Array.from({ length: FILES }, (_unused, index) => asks(snapshot, index) === `asks: Question ${index}?`).every(Boolean),
        20_000,
      );
      expect(right.attention.needYou).toBe(FILES);
    } finally {
      await watch.stop();
    }
  });
});
