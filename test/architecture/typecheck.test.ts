// The whole tree type-checks under the strict tsconfig (no any, exhaustive switches).
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

describe('typecheck', () => {
  it('tsc -p tsconfig.json reports no errors', () => {
    const root = resolve(__dirname, '../..');
    let output = '';
    try {
      execFileSync(process.execPath, [resolve(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], { cwd: root, encoding: 'utf8' });
    } catch (error) {
      output = String((error as { stdout?: string }).stdout ?? error);
    }
    expect(output).toBe('');
  }, 120_000);
});
