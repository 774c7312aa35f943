// Issue 48: the tests of src/main mirror its rooms: each test file lives in test/main/<room>/ for a
// room that exists, none at test/main's top (helpers shared by several rooms stay there).
import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAIN_ROOMS } from './layers';

const TESTS = resolve(__dirname, '../main');

describe('test/main mirrors the rooms of src/main (issue 48)', () => {
  it('every folder is a room, and every test file is in one', () => {
    const entries = readdirSync(TESTS);
    const folders = entries.filter((name) => statSync(join(TESTS, name)).isDirectory());
    const rooms: readonly string[] = MAIN_ROOMS;
    expect(folders.filter((folder) => !rooms.includes(folder))).toEqual([]);
    expect(entries.filter((name) => name.endsWith('.test.ts') || name.endsWith('.test.tsx'))).toEqual([]);
    expect(folders.length).toBeGreaterThan(10);
  });
});
