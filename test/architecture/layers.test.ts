// The layers stay one-way, checked on every test run.
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkFile, checkTree } from './layers';

const SRC = resolve(__dirname, '../../src');

describe('layering', () => {
  it('no file in src imports upward or reaches for a forbidden package', () => {
    expect(checkTree(SRC)).toEqual([]);
  });

  it.each([
    ['engine', "import { readFileSync } from 'node:fs';"],
    ['engine', "import { x } from '../providers/claude/read';"],
    ['engine', "import { app } from 'electron';"],
    ['providers', "import { store } from '../main/store';"],
    ['main', "import { Tray } from '../tray/icon';"],
    ['popover', "import { runtime } from '../main/runtime';"],
    ['popover', "import { readFile } from 'fs';"],
  ])('the checker catches %s importing upward: %s', (layer, line) => {
    expect(checkFile(SRC, join(SRC, layer, 'sample.ts'), line)).toHaveLength(1);
  });

  it.each([
    ['text/sample.ts', "import { formatStatus } from '../cli/format-status';"],
    ['cli/sample.ts', "import { runCommand } from '../commands/dispatch';"],
    ['pipeline/sample.ts', "import { x } from '../runtime/runtime';"],
    ['facts/sample.ts', "import { x } from '../pipeline/pipeline';"],
    ['attic/sample.ts', "import { x } from '../store/home';"],
  ])('issue 48: the checker catches a room of src/main importing one above it (or a room with no place): main/%s', (file, line) => {
    expect(checkFile(SRC, join(SRC, 'main', file), line)).toHaveLength(1);
  });

  it('issue 48: a room of src/main may import rooms below it and itself', () => {
    expect(
      checkFile(
        SRC,
        join(SRC, 'main', 'commands', 'sample.ts'),
        "import { x } from '../cli/format-status';\nimport { y } from '../text/terminal-text';\nimport { z } from './dispatch';",
      ),
    ).toEqual([]);
    expect(checkFile(SRC, join(SRC, 'main', 'pipeline', 'sample.ts'), "import { x } from '../git/working-tree';\nimport { y } from '../../engine';")).toEqual(
      [],
    );
  });

  it('the checker allows the permitted direction', () => {
    expect(checkFile(SRC, join(SRC, 'main', 'sample.ts'), "import { evaluate } from '../engine';\nimport { x } from '../providers/claude/read';")).toEqual([]);
    expect(checkFile(SRC, join(SRC, 'popover', 'sample.tsx'), "import { h } from 'preact';\nimport type { Row } from '../engine/row';")).toEqual([]);
  });
});
