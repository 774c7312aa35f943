// OPENCODE_DB (and Kilo's KILO_DB), as opencode 1.18.33 resolves it: an absolute path is the
// database wherever it lies; another name is a file in the data folder; `:memory:` is none. The
// database it names is read beside those of the folder; the descriptor follows the variable.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { namedDatabase, namedDatabaseWatch } from '../../src/providers/opencode/named-database';
import { OpencodeProvider } from '../../src/providers/opencode/provider';
import { database } from './opencode-db';

const base = mkdtempSync(join(tmpdir(), 'lookout-opencode-db-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe("the database opencode's own variable names", () => {
  it('absolute, relative to the data folder, or in memory', () => {
    expect(namedDatabase('/data/opencode', '/srv/oc/work.db')).toBe('/srv/oc/work.db');
    expect(namedDatabase('/data/opencode', 'work.db')).toBe(join('/data/opencode', 'work.db'));
    expect(namedDatabase('/data/opencode', ':memory:')).toBeNull();
    expect(namedDatabase('/data/opencode', undefined)).toBeNull();
    const [target] = namedDatabaseWatch('/srv/oc/work.db');
    expect(target?.path).toBe('/srv/oc');
    expect(['/srv/oc/work.db', '/srv/oc/work.db-wal', '/srv/oc/other.db'].map((path) => target?.files.test(path))).toEqual([true, true, false]);
  });

  it('a database outside the data folder (OPENCODE_DB=/abs/path) is read', async () => {
    const elsewhere = join(base, 'elsewhere');
    database(
      elsewhere,
      (b) => {
        b.session('ses_named', 'named database');
        b.user('ses_named', 1);
      },
      false,
      'work.db',
    ).close();
    const folder = join(base, 'data');
    expect(await new OpencodeProvider(folder).sync()).toEqual([]);
    const evidence = await new OpencodeProvider(folder, undefined, namedDatabase(folder, join(elsewhere, 'work.db'))).sync();
    expect(evidence.map((item) => [item.sessionId, item.title])).toEqual([['ses_named', 'named database']]);
  });
});
