// The whole tree type-checks under the strict tsconfig (no any, exhaustive switches).
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

describe('typecheck', () => {
  // tsconfig.node.json: all but the popover without the DOM's globals (window's `name` once hid a slip).
  it.each(['tsconfig.json', 'tsconfig.node.json'])(
    'tsc -p %s reports no errors',
    (config) => {
      const root = resolve(__dirname, '../..');
      let output = '';
      try {
        execFileSync(process.execPath, [resolve(root, 'node_modules/typescript/bin/tsc'), '-p', config], { cwd: root, encoding: 'utf8' });
      } catch (error) {
        output = String((error as { stdout?: string }).stdout ?? error);
      }
      expect(output).toBe('');
    },
    120_000,
  );
});
