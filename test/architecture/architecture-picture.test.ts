// docs/architecture.md's picture of src/main's rooms is drawn from the code: stale, it fails here.
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SCRIPT = resolve(__dirname, '../../scripts/architecture-picture.mjs');

describe('the rooms picture', () => {
  it('docs/architecture.md shows every room of src/main and the imports between them as the code has them (npm run docs:architecture)', () => {
    const run = spawnSync(process.execPath, [SCRIPT, '--check'], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });
});
