// Cline CLI's messages files through the session index (issue 14, issue 24's bench): what a file
// said is taken back while it is the same file, same size and time; a changed file is read again;
// a pending call (its command is transcript text) is never kept.
import { readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionEvidence } from '../../src/engine';
import { ClineProvider } from '../../src/providers/cline/provider';
import type { FileEntry, SessionIndexPort } from '../../src/providers/session-index';
import { ClineHome, call, reply, user } from './cline-home';

const T = Date.parse('2026-12-01T13:36:00.000Z');
const homes: ClineHome[] = [];
afterEach(() => {
  for (const made of homes.splice(0)) {
    made.close();
    rmSync(join(made.root, '..'), { recursive: true, force: true });
  }
});

/** An index kept in memory, as main keeps it in LOOKOUT_HOME. */
function memoryIndex(): SessionIndexPort & { entries: Map<string, FileEntry> } {
  const entries = new Map<string, FileEntry>();
  return {
    entries,
    get: (provider, path) => entries.get(`${provider}:${path}`),
    put: (provider, path, entry) => void entries.set(`${provider}:${path}`, entry),
    has: (provider, path) => entries.has(`${provider}:${path}`),
  };
}

async function evidenceOf(root: string, index: SessionIndexPort): Promise<SessionEvidence | undefined> {
  const source = new ClineProvider(root, () => 'alive', index);
  const [evidence] = await source.sync(T + 5_000);
  source.dispose();
  return evidence;
}

/** Rewrites the file with other bytes of the same length, its time put back: only the index can tell what it said. */
function scrambleKeepingStamp(path: string): void {
  const before = statSync(path);
  writeFileSync(path, 'x'.repeat(before.size));
  utimesSync(path, before.atime, before.mtime);
}

describe('Cline CLI messages through the session index', () => {
  it('an unchanged file is not parsed again: its facts and title come back from the index', async () => {
    const made = new ClineHome().session({ id: 's1', status: 'idle', updatedAt: T, messages: [user(T - 200, 'make the badge blue'), reply(T - 50, 'Done.')] });
    homes.push(made);
    const path = join(made.root, 'sessions', 's1', 's1.messages.json');
    // A whole-millisecond time, so that putting it back (utimes) gives the very same stamp.
    utimesSync(path, new Date(T), new Date(T));
    const index = memoryIndex();
    const first = await evidenceOf(made.root, index);
    expect(first?.signal).toMatchObject({ kind: 'assistant-text', stop: 'end' });
    expect(first?.title).toBe('title of s1');
    expect(index.entries.size).toBe(1);
    scrambleKeepingStamp(path);
    const again = await evidenceOf(made.root, index);
    expect(again).toEqual(first);
    // Changed (a new time): read afresh, and a file that does not parse is a skipped record.
    utimesSync(path, new Date(), new Date(T + 60_000));
    const changed = await evidenceOf(made.root, index);
    expect(changed?.skippedLines).toBe(1);
  });

  it('a pending call is never kept (its command is transcript text): the file is read each time', async () => {
    const made = new ClineHome().session({
      id: 's1',
      status: 'pending',
      updatedAt: T,
      messages: [user(T - 200, 'go'), call(T - 100, 'call_1', 'run_commands', { commands: 'rm -rf build' })],
    });
    homes.push(made);
    const index = memoryIndex();
    const first = await evidenceOf(made.root, index);
    expect(first?.signal?.kind).toBe('tool-call');
    expect(index.entries.size).toBe(0);
    expect(JSON.stringify([...index.entries.values()])).not.toContain('rm -rf');
    expect(readFileSync(join(made.root, 'sessions', 's1', 's1.messages.json'), 'utf8')).toContain('rm -rf build');
  });
});
