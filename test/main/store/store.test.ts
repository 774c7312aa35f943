// §10: the store keeps user facts only, validates every load, keeps bad files aside, migrates,
// survives kill -9 mid-write and loses nothing to a second writer.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FactStore, migrate, toFacts } from '../../../src/main/store/facts-store';
import { storeSchema } from '../../../src/main/store/schema';
import { loadSettings } from '../../../src/main/store/settings-store';
import { DEFAULT_TIMINGS } from '../../../src/engine';

const root = mkdtempSync(join(tmpdir(), 'lookout-store-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const WRITER = resolve(__dirname, '../../../test-artifacts/helpers/store-writer.cjs');
const NOW = Date.parse('2026-11-29T12:00:00.000Z');
let n = 0;
const home = (): string => {
  n += 1;
  const dir = join(root, `home-${n}`);
  mkdirSync(dir, { recursive: true });
  return dir;
};
const aside = (dir: string, name: string) => readdirSync(dir).filter((file) => file.startsWith(`${name}.corrupt-`));

describe('the fact store', () => {
  it('§10 a missing store is empty and nothing is written by reading it', () => {
    const dir = home();
    const store = new FactStore(dir);
    expect(store.read(NOW)).toEqual({ file: expect.objectContaining({ schemaVersion: 2, reviews: {} }), problems: [] });
    expect(existsSync(store.path)).toBe(false);
  });

  it('§10 facts written are read back, in the engine’s units', () => {
    const dir = home();
    const store = new FactStore(dir);
    store.update(NOW, (file) => {
      file.reviews['claude:a'] = { state: 'flagged', at: '2026-11-29T12:00:00.000Z', lastActivityAt: '2026-11-29T11:00:00.000Z' };
      file.mutes['claude:a'] = { at: '2026-11-29T12:00:00.000Z', until: null };
    });
    const facts = toFacts(new FactStore(dir).read(NOW).file);
    expect(facts.reviews['claude:a']).toEqual({ state: 'flagged', at: NOW, lastActivityAt: NOW - 3_600_000 });
    expect(facts.mutes['claude:a']).toEqual({ at: NOW, until: null });
  });

  it.each([
    ['bad JSON', '{"schemaVersion": 2, "reviews": {', /not valid JSON/],
    ['an empty file', '', /not valid JSON/],
    ['a wrong shape', '[1,2,3]', /could not be used/],
    [
      'a bad review state',
      JSON.stringify({
        schemaVersion: 2,
        reviews: { k: { state: 'done', at: '2026-11-29T12:00:00.000Z', lastActivityAt: null } },
        mutes: {},
        visits: {},
        attentionCalls: {},
        ruleLedger: [],
        notified: [],
      }),
      /could not be used/,
    ],
    ['a newer schema version', JSON.stringify({ schemaVersion: 99 }), /written by a newer Lookout \(schema 99/],
  ])('§10 %s is kept aside, reported, and the defaults apply', (_label, text, message) => {
    const dir = home();
    writeFileSync(join(dir, 'store.json'), text);
    const result = new FactStore(dir).read(NOW);
    expect(result.file.reviews).toEqual({});
    expect(result.problems).toHaveLength(1);
    expect(result.problems[0]).toMatch(message);
    expect(aside(dir, 'store.json')).toHaveLength(1);
    expect(readFileSync(join(dir, aside(dir, 'store.json')[0] ?? ''), 'utf8')).toBe(text);
    expect(existsSync(join(dir, 'store.json'))).toBe(false);
  });

  it('§10 a version 1 store is migrated, every fact kept', () => {
    const v1 = {
      schemaVersion: 1,
      reviews: { 'claude:a': { state: 'reviewed', at: '2026-11-01T00:00:00.000Z' } },
      mutes: { 'codex:b': { at: '2026-11-01T00:00:00.000Z', until: '2026-11-02T00:00:00.000Z' } },
      visits: { 'claude:a': { at: '2026-11-01T00:00:00.000Z', fingerprint: 'f' } },
      ruleLedger: [{ key: 'claude:a', ruleId: 'outdated-after-7d', version: 1, set: 'outdated', at: '2026-11-01T00:00:00.000Z' }],
      notified: ['claude:a|failed|1'],
    };
    const migrated = migrate(v1);
    expect(storeSchema.safeParse(migrated).success).toBe(true);
    expect(migrated?.reviews['claude:a']).toEqual({ state: 'reviewed', at: '2026-11-01T00:00:00.000Z', lastActivityAt: null });
    expect(migrated?.notified.map((entry) => entry.id)).toEqual(['claude:a|failed|1']);
    expect(migrated?.ruleLedger[0]?.ruleId).toBe('outdated-after-7d');
    const dir = home();
    writeFileSync(join(dir, 'store.json'), JSON.stringify(v1));
    const store = new FactStore(dir);
    store.update(NOW, () => undefined);
    expect(JSON.parse(readFileSync(store.path, 'utf8')).schemaVersion).toBe(2);
  });

  /** Whether a writer with this prefix has saved a fact yet (a save replaces the file whole). */
  const writing = (dir: string, prefix: string): boolean => {
    try {
      return readFileSync(join(dir, 'store.json'), 'utf8').includes(`"${prefix}`);
    } catch {
      return false;
    }
  };

  it('§10 kill -9 during a write loop always leaves a valid file', async () => {
    const dir = home();
    const survivors: boolean[] = [];
    for (let round = 0; round < 12; round += 1) {
      const child = spawn(process.execPath, [WRITER, dir, `w${round}`, '0'], { stdio: 'ignore' });
      // Killed once it is writing (how long it takes to start depends on the machine's load), at a random point of its loop.
      while (!writing(dir, `w${round}:`) && child.exitCode === null) await new Promise((done) => setTimeout(done, 20));
      await new Promise((done) => setTimeout(done, Math.floor(Math.random() * 200)));
      child.kill('SIGKILL');
      await new Promise((done) => child.once('exit', done));
      if (!existsSync(join(dir, 'store.json'))) continue;
      const parsed = storeSchema.safeParse(JSON.parse(readFileSync(join(dir, 'store.json'), 'utf8')));
      survivors.push(parsed.success);
    }
    expect(survivors.length).toBeGreaterThan(6);
    expect(survivors.every(Boolean)).toBe(true);
    // A lock left by a killed writer is taken over, not waited on forever.
    new FactStore(dir).update(Date.now(), () => undefined);
  }, 120_000); // twelve writer processes, each started and then killed while writing

  it('§10 two writer processes at once lose no fact', async () => {
    const dir = home();
    const run = (prefix: string) =>
      new Promise<number | null>((done) => spawn(process.execPath, [WRITER, dir, prefix, '150'], { stdio: 'ignore' }).once('exit', done));
    const codes = await Promise.all([run('a'), run('b')]);
    expect(codes).toEqual([0, 0]);
    const facts = new FactStore(dir).read(Date.now()).file.reviews;
    expect(Object.keys(facts).filter((key) => key.startsWith('a:'))).toHaveLength(150);
    expect(Object.keys(facts).filter((key) => key.startsWith('b:'))).toHaveLength(150);
  }, 60_000);

  it('the writer helper exists (built by the global setup)', () => {
    expect(spawnSync(process.execPath, [WRITER, home(), 'x', '1']).status).toBe(0);
  });
});

describe('settings', () => {
  it('cli.md a partial settings file lays its values over the defaults', () => {
    const dir = home();
    writeFileSync(
      join(dir, 'settings.json'),
      JSON.stringify({ timings: { staleAfter: 600000 }, notifications: { finished: false }, openCommand: ['wezterm', 'start', '--cwd', '{cwd}'] }),
    );
    const { settings, problems } = loadSettings(dir, NOW);
    expect(problems).toEqual([]);
    expect(settings.timings).toEqual({ ...DEFAULT_TIMINGS, staleAfter: 600000 });
    expect(settings.notifications).toEqual({ enabled: true, needsYou: true, failed: true, finished: false, limits: true });
    expect(settings.openCommand).toEqual(['wezterm', 'start', '--cwd', '{cwd}']);
    expect(settings.rules).toEqual([{ id: 'outdated-after-7d', version: 1, when: { inactiveFor: '7d' }, set: 'outdated' }]);
  });

  it.each([
    ['bad JSON', '{', /not valid JSON/],
    ['a negative timing', JSON.stringify({ timings: { beat: -5 } }), /could not be used/],
    ['a rule with a bad duration', JSON.stringify({ rules: [{ id: 'r', version: 1, when: { inactiveFor: 'soon' }, set: 'outdated' }] }), /could not be used/],
    ['a newer schema', JSON.stringify({ schemaVersion: 7 }), /newer Lookout/],
  ])('cli.md settings with %s are kept aside and the defaults apply', (_label, text, message) => {
    const dir = home();
    writeFileSync(join(dir, 'settings.json'), text);
    const { settings, problems } = loadSettings(dir, NOW);
    expect(problems[0]).toMatch(message);
    expect(settings.timings).toEqual(DEFAULT_TIMINGS);
    expect(aside(dir, 'settings.json')).toHaveLength(1);
  });
});
