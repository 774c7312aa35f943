// Issue 14: a file unchanged since the session index kept its readings is not opened at all; what
// the index gives back must be exactly what reading the file gives. Every Claude and Codex fixture
// (their real shapes, agent-formats §1–2), made long with records the readers pass over at its start, is read
// with no index, then twice through one (the second time from the index): the evidence must match.
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SessionIndexStore } from '../../src/main/store/session-index-store';
import { ClaudeProvider } from '../../src/providers/claude/provider';
import { CodexProvider } from '../../src/providers/codex/provider';
import type { SessionIndexPort } from '../../src/providers/session-index';
import type { EvidenceSource } from '../../src/providers/source';
import type { FixtureProvider } from './fixture-roots';
import { fixtures } from './fixture-roots';

const base = mkdtempSync(join(tmpdir(), 'lookout-kept-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** Records each reader passes over, timed as the file's first record (so no time moves). */
function filler(provider: 'claude' | 'codex', firstLine: string): string {
  const at = /"timestamp":"([^"]+)"/.exec(firstLine)?.[1] ?? '2026-11-29T12:00:00.000Z';
  const line =
    provider === 'claude'
      ? { type: 'file-history-snapshot', messageId: 'm0', snapshot: { trackedFileBackups: {}, timestamp: at, note: 'y'.repeat(900) }, isSnapshotUpdate: false }
      : { timestamp: at, type: 'lookout-test-filler', payload: { note: 'y'.repeat(900) } };
  return `${JSON.stringify(line)}\n`.repeat(60);
}

/** Every .jsonl under `folder`, with ~60 KB of filler before its first line: its end is read apart from its head. */
function lengthen(folder: string, provider: 'claude' | 'codex'): void {
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) lengthen(path, provider);
    else if (name.endsWith('.jsonl')) {
      const text = readFileSync(path, 'utf8');
      const newline = text.indexOf('\n');
      if (newline !== -1) writeFileSync(path, filler(provider, text.slice(0, newline)) + text);
    }
  }
}

function source(provider: 'claude' | 'codex', root: string, index?: SessionIndexPort): EvidenceSource {
  return provider === 'claude' ? new ClaudeProvider(root, undefined, false, index) : new CodexProvider(root, undefined, index);
}

describe("readings kept in the session index equal the files' (issue 14)", () => {
  for (const provider of ['claude', 'codex'] as const satisfies readonly FixtureProvider[]) {
    it(`${provider}: every fixture, lengthened, reads the same from the index as from its files`, async () => {
      let kept = 0;
      for (const fixture of fixtures(provider)) {
        const root = join(base, provider, fixture.name);
        cpSync(fixture.root, root, { recursive: true });
        lengthen(root, provider);
        const now = Date.parse(fixture.meta.checks[0]?.now ?? '2026-11-29T12:02:00.000Z');
        const fresh = JSON.stringify(await source(provider, root).sync(now));
        const index = new SessionIndexStore(
          join(base, `${provider}-${fixture.name}-home`),
          () => now,
          () => undefined,
        );
        expect(JSON.stringify(await source(provider, root, index).sync(now)), `${fixture.name}, first read`).toBe(fresh);
        expect(JSON.stringify(await source(provider, root, index).sync(now)), `${fixture.name}, from the index`).toBe(fresh);
        index.flush();
        const written = join(base, `${provider}-${fixture.name}-home`, 'index.json');
        // A fixture whose end never settles is read whole: nothing of it is kept.
        const file = (existsSync(written) ? JSON.parse(readFileSync(written, 'utf8')) : { providers: {} }) as {
          providers: Record<string, Record<string, { tail?: unknown }>>;
        };
        kept += Object.values(file.providers[provider] ?? {}).filter((entry) => entry.tail !== null && entry.tail !== undefined).length;
        index.dispose();
      }
      // The index kept most fixtures' ends (those without text in their signal): the path was taken.
      expect(kept).toBeGreaterThan(fixtures(provider).length / 3);
    });
  }
});
