// Issue 14 for issue 24's and 50's agents: Gemini CLI, Qwen Code, Factory Droid and Pi keep a file's end in the
// session index (ending-codec.ts); what the index gives back must be exactly what reading the file
// gives. Every case the live lab recorded of them, and the bench's long sessions (a file read whole
// keeps nothing), are read with no index, then twice through one (the second time from the index):
// the evidence must match, and the long sessions' ends must have been kept.
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SessionIndexStore } from '../../src/main/store/session-index-store';
import { findProvider, resolveRoots } from '../../src/providers';
import type { SessionIndexPort } from '../../src/providers/session-index';
import { NO_INDEX } from '../../src/providers/session-index';
import { droidSessions, geminiSessions, piSessions, qwenSessions } from '../../scripts/bench/more-agents';

const LIVE = join(__dirname, '../fixtures/live');
const base = mkdtempSync(join(tmpdir(), 'lookout-kept-endings-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

async function read(id: string, root: string, now: number, index: SessionIndexPort): Promise<string> {
  const provider = findProvider(id);
  if (provider === undefined) throw new Error(`no provider ${id}`);
  const source = provider.createSource(root, { watching: false, index });
  const evidence = await source.sync(now);
  source.dispose?.();
  return JSON.stringify(evidence);
}

/** Reads the root fresh, then twice through one index; says how many ends the index kept. */
async function compare(id: string, root: string, now: number, label: string): Promise<number> {
  const fresh = await read(id, root, now, NO_INDEX);
  const lookoutHome = join(base, `${label}-lookout`);
  const index = new SessionIndexStore(
    lookoutHome,
    () => now,
    () => undefined,
  );
  expect(await read(id, root, now, index), `${label}, first read`).toBe(fresh);
  expect(await read(id, root, now, index), `${label}, from the index`).toBe(fresh);
  index.flush();
  const written = join(lookoutHome, 'index.json');
  const file = (existsSync(written) ? JSON.parse(readFileSync(written, 'utf8')) : { providers: {} }) as {
    providers: Record<string, Record<string, { tail?: unknown }>>;
  };
  index.dispose();
  return Object.values(file.providers[id] ?? {}).filter((entry) => entry.tail !== null && entry.tail !== undefined).length;
}

const LONG = {
  gemini: (home: string, now: number) => geminiSessions(join(home, '.gemini'), 30, now),
  qwen: (home: string, now: number) => qwenSessions(join(home, '.qwen'), 30, now),
  droid: (home: string, now: number) => droidSessions(join(home, '.factory'), 30, now),
  pi: (home: string, now: number) => piSessions(join(home, '.pi', 'agent'), 30, now),
};

describe("ends kept in the session index equal the files' (issue 14, issue 24)", () => {
  it.each(['gemini', 'qwen', 'droid', 'pi'] as const)(
    '%s: every recorded case, and long sessions, read the same from the index as from their files',
    async (id) => {
      let cases = 0;
      for (const version of readdirSync(LIVE).filter((name) => name.startsWith(`${id}-`))) {
        for (const name of readdirSync(join(LIVE, version))) {
          const folder = join(LIVE, version, name);
          if (!existsSync(join(folder, 'case.json'))) continue;
          cases += 1;
          const home = join(base, `${id}-${name}`);
          cpSync(join(folder, 'home'), home, { recursive: true, preserveTimestamps: true });
          const now = Date.parse((JSON.parse(readFileSync(join(folder, 'case.json'), 'utf8')) as { now: string }).now);
          await compare(id, resolveRoots({ HOME: home })[id] ?? '', now, `${id}-${name}`);
        }
      }
      expect(cases).toBeGreaterThan(2);
      const home = join(base, `${id}-long`);
      const now = Date.parse('2026-12-01T22:00:00Z');
      LONG[id](home, now);
      // Finished sessions whose ends name no call and no error words: every one kept, the path taken.
      expect(await compare(id, resolveRoots({ HOME: home })[id] ?? '', now, `${id}-long`)).toBe(30);
    },
  );
});
