// Homes made of Claude fixtures, one folder per call, removed after the file's tests.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { FIXTURES } from '../providers/fixture-roots';

export function fixtureHomes(prefix: string): { base: string; home(names: string[]): Record<string, string> } {
  const base = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(base, { recursive: true, force: true }));
  let n = 0;
  return {
    base,
    home(names) {
      n += 1;
      const dir = join(base, `run-${n}`);
      for (const name of names) cpSync(join(FIXTURES, 'claude', name), join(dir, 'claude'), { recursive: true });
      return { CLAUDE_CONFIG_DIR: join(dir, 'claude'), CODEX_HOME: join(dir, 'codex'), LOOKOUT_HOME: join(dir, 'home'), HOME: dir };
    },
  };
}
