// A write killed between its temp file and the rename (kill -9) leaves `<file>.lookout-<pid>.tmp`
// beside the store: Lookout removes its own when it starts, and nothing else (issue 25).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadState } from '../../../src/main/pipeline/state';
import { tempPathOf } from '../../../src/providers/system/private-files';

const base = mkdtempSync(join(tmpdir(), 'lookout-stale-temps-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** A file of `ageMs`, by its modification time. */
function file(path: string, ageMs: number): string {
  writeFileSync(path, '{"half": ');
  const when = (Date.now() - ageMs) / 1000;
  utimesSync(path, when, when);
  return path;
}

describe('temp files left beside the store', () => {
  it("issue 25: .tmp files are left beside the store after a kill -9 — its own stale ones are removed on start, nobody else's", () => {
    const home = join(base, 'home');
    mkdirSync(home, { recursive: true });
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    const alive = process.ppid;
    expect(alive).not.toBe(process.pid);
    const minute = 60_000;
    const gone = [
      file(tempPathOf(join(home, 'store.json'), dead), minute),
      file(tempPathOf(join(home, 'settings.json'), dead), minute),
      // A live pid two hours on is another process that took the number: no write takes that long.
      file(tempPathOf(join(home, 'settings.json'), alive), 120 * minute),
    ];
    const kept = [
      // Written a moment ago: maybe a write in flight.
      file(tempPathOf(join(home, 'index.json'), dead), 0),
      // Another Lookout that is running: its write may be in flight.
      file(tempPathOf(join(home, 'store.json'), alive), minute),
      // Not a name Lookout writes here.
      file(tempPathOf(join(home, 'notes.json'), dead), minute),
      file(join(home, `store.json.lookout-${dead}.tmp.keep`), minute),
      file(join(home, 'store.json.lookout-x.tmp'), minute),
    ];
    loadState(Date.now(), { LOOKOUT_HOME: home });
    const left = readdirSync(home).sort();
    expect(left).toEqual(kept.map((path) => path.slice(home.length + 1)).sort());
    expect(gone.every((path) => !left.includes(path.slice(home.length + 1)))).toBe(true);
  });
});
