// The store's cross-process lock (folder-lock.ts). A CI run lost one `hosts add` of sixteen under
// load: a lock was taken over while its holder still worked. Real processes where processes race.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { withLock } from '../../../src/providers/system/folder-lock';
import { waitFor } from '../../wait';

const HOLDER = resolve(__dirname, '../../../test-artifacts/helpers/lock-holder.cjs');
const base = mkdtempSync(join(tmpdir(), 'lookout-folder-lock-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

function place(): { lockDir: string; marks: string } {
  const dir = mkdtempSync(join(base, 'case-'));
  const marks = join(dir, 'marks');
  mkdirSync(marks);
  return { lockDir: join(dir, '.store.lock'), marks };
}

/** A pid no process has: a child's, once it has ended and been reaped. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '0']);
  return child.pid;
}

/** `count` holder processes, released together once all have started; resolves with their exit codes. */
async function contend(lockDir: string, marks: string, count: number, holdMs: number, rounds: number): Promise<(number | null)[]> {
  const exits = Array.from({ length: count }, () => {
    const child = spawn(process.execPath, [HOLDER, lockDir, marks, String(holdMs), String(rounds)], { stdio: ['ignore', 'ignore', 'inherit'] });
    return new Promise<number | null>((done) => child.once('exit', done));
  });
  const ready = () => readdirSync(marks).filter((name) => name.startsWith('ready-')).length;
  await waitFor(
    `${count} holders to start`,
    () => (ready() === count ? true : undefined),
    () => `${ready()} started`,
    { every: 10 },
  );
  writeFileSync(join(marks, 'go'), '');
  return Promise.all(exits);
}

const entries = (marks: string): string[] => (existsSync(join(marks, 'entries')) ? readFileSync(join(marks, 'entries'), 'utf8').trim().split('\n') : []);
const overlaps = (marks: string): string => (existsSync(join(marks, 'overlaps')) ? readFileSync(join(marks, 'overlaps'), 'utf8') : '');

describe('the store lock across processes', () => {
  // Each contender judges the same lock abandoned; a takeover that removes the folder by name frees
  // the lock another contender has just taken, and two are inside at once.
  it.each([
    ["this Lookout's lock", (lockDir: string) => writeFileSync(join(lockDir, `holder-${deadPid()}-0ddba11`), '')],
    ["an older Lookout's lock (an `owner` file)", (lockDir: string) => writeFileSync(join(lockDir, 'owner'), String(deadPid()))],
  ])(
    '%s left by a dead holder, with twelve processes racing to take it over: one inside at a time, all get in',
    async (_, plant) => {
      for (let round = 0; round < 4; round += 1) {
        const { lockDir, marks } = place();
        mkdirSync(lockDir);
        plant(lockDir);
        expect(await contend(lockDir, marks, 12, 3, 2)).toEqual(Array.from({ length: 12 }, () => 0));
        expect(overlaps(marks)).toBe('');
        expect(entries(marks)).toHaveLength(12 * 2 * 2);
        expect(existsSync(lockDir)).toBe(false);
      }
    },
    240_000,
  );

  it('a live holder inside for longer than a second is waited for, never taken over', async () => {
    const { lockDir, marks } = place();
    expect(await contend(lockDir, marks, 3, 1_200, 1)).toEqual([0, 0, 0]);
    expect(overlaps(marks)).toBe('');
    // In, out, in, out: each entry after the one before has left.
    const times = entries(marks).map((line) => line.split(' '));
    expect(times.map(([, , what]) => what)).toEqual(['in', 'out', 'in', 'out', 'in', 'out']);
    for (let index = 2; index < times.length; index += 2) expect(Number(times[index]?.[1])).toBeGreaterThanOrEqual(Number(times[index - 1]?.[1]));
  }, 60_000);
});

describe('the store lock in one process', () => {
  it("a holder whose lock was taken over while it worked leaves the new holder's lock in place", () => {
    const { lockDir } = place();
    const other = `holder-${process.pid}-5ca1ab1e`;
    withLock(lockDir, () => {
      // What a taker-over does when it judges this holder gone, then another process's lock moving in.
      const [mine = ''] = readdirSync(lockDir);
      unlinkSync(join(lockDir, mine));
      writeFileSync(join(lockDir, other), '');
    });
    expect(readdirSync(lockDir)).toEqual([other]);
  });

  it('the lock exists, named for its holder, only while the work runs', () => {
    const { lockDir } = place();
    const seen = withLock(lockDir, () => readdirSync(lockDir));
    expect(seen).toEqual([expect.stringMatching(new RegExp(`^holder-${process.pid}-[0-9a-f]+$`))]);
    expect(existsSync(lockDir)).toBe(false);
    expect(readdirSync(join(lockDir, '..')).filter((name) => name !== 'marks')).toEqual([]);
  });

  it('an empty lock folder (a holder stopped halfway through freeing it) is free at once', () => {
    const { lockDir } = place();
    mkdirSync(lockDir);
    const started = Date.now();
    expect(withLock(lockDir, () => 'in')).toBe('in');
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(existsSync(lockDir)).toBe(false);
  });

  it('a live holder that has held the lock for more than ten seconds is taken to be gone (its pid reused)', () => {
    const { lockDir } = place();
    mkdirSync(lockDir);
    const old = join(lockDir, `holder-${process.ppid}-01d`);
    writeFileSync(old, '');
    const then = new Date(Date.now() - 11_000);
    utimesSync(old, then, then);
    expect(withLock(lockDir, () => 'in')).toBe('in');
  });

  it("a live holder's lock, and one holding what Lookout did not write, are waited for and then refused in one line", () => {
    for (const name of [`holder-${process.ppid}-1ace`, 'notes.txt']) {
      const { lockDir } = place();
      mkdirSync(lockDir);
      writeFileSync(join(lockDir, name), '');
      let ran = false;
      expect(() => withLock(lockDir, () => (ran = true))).toThrow(`${lockDir} is held by another Lookout process (waited 5 s)`);
      expect(ran).toBe(false);
      expect(readdirSync(lockDir)).toEqual([name]);
      // The staged lock does not stay behind.
      expect(readdirSync(join(lockDir, '..')).sort()).toEqual(['.store.lock', 'marks']);
    }
  }, 30_000);

  it("a staged lock left by a waiter that was killed is swept; a live waiter's is kept", () => {
    const { lockDir } = place();
    const dead = `${lockDir}.${deadPid()}-abc123`;
    const live = `${lockDir}.${process.ppid}-def456`;
    mkdirSync(dead);
    mkdirSync(live);
    withLock(lockDir, () => undefined);
    expect(existsSync(dead)).toBe(false);
    expect(existsSync(live)).toBe(true);
  });
});
