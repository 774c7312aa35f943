// A file of another agent changing is no reason for a provider to read its own folders again: it
// hands back the very same evidence, so the runtime skips the fold (issue 24's nine-agent bench).
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PROVIDERS, resolveRoots } from '../../src/providers';
import { NO_INDEX } from '../../src/providers/session-index';
import { touchesRoot } from '../../src/providers/source';

const base = mkdtempSync(join(tmpdir(), 'lookout-unrelated-'));
const LIVE = join(__dirname, '../fixtures/live');
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('a change elsewhere', () => {
  it('touchesRoot: a full sync, the root itself, or a path under it; never a sibling with the same prefix', () => {
    expect(touchesRoot(undefined, '/h/.qwen')).toBe(true);
    expect(touchesRoot(new Set(['/h/.qwen']), '/h/.qwen')).toBe(true);
    expect(touchesRoot(new Set(['/h/.qwen/projects/a/chats/x.jsonl']), '/h/.qwen')).toBe(true);
    expect(touchesRoot(new Set(['/h/.qwen-old/x.jsonl', '/h/.codex/sessions/y.jsonl']), '/h/.qwen')).toBe(false);
    expect(touchesRoot(new Set(), '/h/.qwen')).toBe(false);
  });

  it.each(PROVIDERS.filter((provider) => ['gemini', 'qwen', 'cline', 'droid'].includes(provider.id)).map((provider) => [provider.id, provider] as const))(
    "%s hands back the same evidence, its folder not read again, when only another agent's file changed",
    async (id, provider) => {
      // The session the real agent left when killed in the live lab.
      const home = join(base, id);
      const version = readdirSync(LIVE).find((name) => name.startsWith(`${id}-`)) ?? '';
      cpSync(join(LIVE, version, 'killed', 'home'), home, { recursive: true });
      const root = resolveRoots({ HOME: home })[id] ?? '';
      const source = provider.createSource(root, { watching: true, index: NO_INDEX });
      const now = Date.parse('2026-12-01T23:00:00Z');
      const first = await source.sync(now);
      expect(first).toHaveLength(1);
      // Gone from disk: only a sync that reads the folder again can tell.
      rmSync(root, { recursive: true, force: true });
      expect(await source.sync(now + 1000, new Set([join(base, 'other-agent', 'session.jsonl')]))).toBe(first);
      expect(await source.sync(now + 2000, new Set([join(root, 'x')]))).toHaveLength(0);
      source.dispose?.();
    },
  );
});
