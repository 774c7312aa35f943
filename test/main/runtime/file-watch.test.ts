// Issue 51: the watcher watches folders only, and hears each file through its folder: an append,
// a new file, a file in a new folder, a removal; files its targets do not read are not reported.
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ChangeWatcher, rawEventPath } from '../../../src/main/runtime/file-watch';
import { waitFor } from '../../wait';

const base = mkdtempSync(join(tmpdir(), 'lk-watch-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** The inotify watches this process holds (Linux), or null where it cannot be told. */
function inotifyWatches(): number | null {
  if (process.platform !== 'linux') return null;
  let count = 0;
  for (const fd of readdirSync('/proc/self/fdinfo')) {
    try {
      count += readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8')
        .split('\n')
        .filter((line) => line.startsWith('inotify wd:')).length;
    } catch {
      // A descriptor closed meanwhile.
    }
  }
  return count;
}

describe('the file watcher (issue 51: folders only)', () => {
  it('a raw event names a file of a folder only where a target reads it', () => {
    expect(rawEventPath('a.jsonl', { watchedPath: '/h/p' }, [/\.jsonl$/])).toBe(join('/h/p', 'a.jsonl'));
    expect(rawEventPath('a.tmp', { watchedPath: '/h/p' }, [/\.jsonl$/])).toBeNull();
    expect(rawEventPath('', { watchedPath: '/h/p' }, [/\.jsonl$/])).toBeNull();
    expect(rawEventPath('a.jsonl', {}, [/\.jsonl$/])).toBeNull();
  });

  it('hears appends, new files, files in new folders and removals through the folders, with one watch a folder, not a file', async () => {
    const root = join(base, 'agent');
    mkdirSync(join(root, 'p1'), { recursive: true });
    const files = Array.from({ length: 200 }, (_, index) => join(root, 'p1', `s${index}.jsonl`));
    for (const file of files) writeFileSync(file, '{}\n');
    const before = inotifyWatches();
    const heard = new Set<string>();
    const watcher = new ChangeWatcher(
      [{ path: root, depth: 2, files: /\.jsonl$/ }],
      (paths) => {
        for (const path of paths) heard.add(path);
      },
      (error) => {
        throw error;
      },
    );
    try {
      await watcher.ready();
      const held = inotifyWatches();
      // Two folders (the root and p1), never 200 files.
      if (before !== null && held !== null) expect(held - before).toBeLessThanOrEqual(4);
      const first = files[0] ?? '';
      appendFileSync(first, '{"more":1}\n');
      await waitFor('the append heard', () => (heard.has(first) ? true : undefined));
      const fresh = join(root, 'p1', 'new.jsonl');
      writeFileSync(fresh, '{}\n');
      await waitFor('the new file heard', () => (heard.has(fresh) ? true : undefined));
      mkdirSync(join(root, 'p2'));
      await waitFor('the new folder heard', () => (heard.has(join(root, 'p2')) ? true : undefined));
      const later = join(root, 'p2', 'later.jsonl');
      // A file in the new folder, once its watch is up: heard through that folder.
      await waitFor('a file in the new folder heard', () => {
        appendFileSync(later, '{}\n');
        return heard.has(later) ? true : undefined;
      });
      rmSync(files[1] ?? '');
      await waitFor('the removal heard', () => (heard.has(files[1] ?? '') ? true : undefined));
      writeFileSync(join(root, 'p1', 'notes.txt'), 'not a session');
      appendFileSync(first, '{"more":2}\n');
      heard.delete(first);
      await waitFor('the second append heard', () => (heard.has(first) ? true : undefined));
      expect(heard.has(join(root, 'p1', 'notes.txt'))).toBe(false);
    } finally {
      await watcher.dispose();
    }
  });
});
