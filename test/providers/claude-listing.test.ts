// Issue 27: a change to Claude files already known keeps the folders' listing; any other change
// under the root, or a change only elsewhere (a hook's spool line: the root may not be watched
// yet), lists them again, so a new session's file is never missed.
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ClaudeProvider } from '../../src/providers/claude/provider';

const base = mkdtempSync(join(tmpdir(), 'lookout-listing-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

function session(root: string, id: string): string {
  const folder = join(root, 'projects', '-home-me-app');
  mkdirSync(folder, { recursive: true });
  const path = join(folder, `${id}.jsonl`);
  const at = new Date().toISOString();
  writeFileSync(
    path,
    `${JSON.stringify({ type: 'user', sessionId: id, cwd: '/home/me/app', uuid: 'u1', parentUuid: null, timestamp: at, message: { role: 'user', content: 'hello' } })}\n`,
  );
  return path;
}

const ids = (evidence: { sessionId: string }[]) => evidence.map((item) => item.sessionId).sort();

describe('issue 27: the Claude folders are listed again only when a change may have altered them', () => {
  it('a spool-only change finds a session file that appeared under a root nobody watched', async () => {
    const root = join(base, 'unwatched');
    const provider = new ClaudeProvider(root);
    expect(await provider.sync(Date.now())).toEqual([]);
    session(root, 'a0000000-0000-4000-8000-000000000001');
    expect(ids(await provider.sync(Date.now(), new Set([join(base, 'home', 'spool', 'claude.jsonl')])))).toEqual(['a0000000-0000-4000-8000-000000000001']);
  });

  it('a new file named in the change is found; an append to a known file reads that file', async () => {
    const root = join(base, 'watched');
    const first = session(root, 'b0000000-0000-4000-8000-000000000001');
    const provider = new ClaudeProvider(root);
    expect(ids(await provider.sync(Date.now()))).toHaveLength(1);
    const second = session(root, 'b0000000-0000-4000-8000-000000000002');
    expect(ids(await provider.sync(Date.now(), new Set([second])))).toHaveLength(2);
    appendFileSync(
      first,
      `${JSON.stringify({ type: 'assistant', sessionId: 'b0000000-0000-4000-8000-000000000001', uuid: 'a1', parentUuid: 'u1', timestamp: new Date().toISOString(), message: { role: 'assistant', content: [{ type: 'text', text: 'done' }], stop_reason: 'end_turn' } })}\n`,
    );
    const after = await provider.sync(Date.now(), new Set([first]));
    expect(after.find((item) => item.sessionId.endsWith('1'))?.lastRecordAt).toBeGreaterThan(0);
    expect(ids(after)).toHaveLength(2);
  });
});
