import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildSync } from 'esbuild';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cachePathFor } from '../../../src/main/commands/code-cache';

// runBundle is exercised in child processes (it runs a bundle and writes its cache at exit), so
// it is built to plain CommonJS first.
let built: string;
let LOADER: string;
let dir: string;

beforeAll(() => {
  built = mkdtempSync(join(tmpdir(), 'lookout-code-cache-loader-'));
  LOADER = join(built, 'code-cache.cjs');
  buildSync({
    entryPoints: [resolve(__dirname, '../../../src/main/commands/code-cache.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    outfile: LOADER,
    logLevel: 'warning',
  });
});
afterAll(() => rmSync(built, { recursive: true, force: true }));
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lookout-code-cache-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function run(bundle: string, write: boolean, nodeArgs: string[] = []): { use: string; out: string } {
  const script = `const { runBundle } = require(${JSON.stringify(LOADER)}); const use = runBundle(${JSON.stringify(bundle)}, require, ${write}); process.stderr.write(use);`;
  const result = spawnSync(process.execPath, [...nodeArgs, '-e', script], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(result.stderr);
  return { use: result.stderr, out: result.stdout };
}

describe('the command line runs from a code cache made for its very bundle', () => {
  it('runs without a cache, writes one, then runs from it', () => {
    const bundle = join(dir, 'bundle.cjs');
    writeFileSync(
      bundle,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a bundle's code, with its own template literal
      "process.stdout.write(`${__filename.endsWith('bundle.cjs')} ${typeof require('node:path').join} ${module.exports !== undefined}`);\n",
    );
    expect(run(bundle, false)).toEqual({ use: 'absent', out: 'true function true' });
    expect(run(bundle, true).use).toBe('absent');
    expect(existsSync(cachePathFor(bundle))).toBe(true);
    expect(run(bundle, false)).toEqual({ use: 'accepted', out: 'true function true' });
  });

  it('ignores a cache made for other content of the same length (V8 checks only the length)', () => {
    const bundle = join(dir, 'bundle.cjs');
    writeFileSync(bundle, 'process.stdout.write("one");\n');
    run(bundle, true);
    writeFileSync(bundle, 'process.stdout.write("two");\n');
    utimesSync(bundle, new Date(), new Date(Date.now() + 5000));
    expect(run(bundle, false)).toEqual({ use: 'stale', out: 'two' });
  });

  it('compiles as usual when V8 refuses the cache (a corrupt payload)', () => {
    const bundle = join(dir, 'bundle.cjs');
    writeFileSync(bundle, 'process.stdout.write("ok");\n');
    run(bundle, true);
    const cache = readFileSync(cachePathFor(bundle));
    cache.fill(7, 16, 80);
    writeFileSync(cachePathFor(bundle), cache);
    expect(run(bundle, false)).toEqual({ use: 'rejected', out: 'ok' });
  });

  it('is left aside when source maps are on, so stack traces still map to the sources', () => {
    const bundle = join(dir, 'bundle.cjs');
    writeFileSync(bundle, 'process.stdout.write("plain");\n');
    run(bundle, true);
    expect(run(bundle, false, ['--enable-source-maps'])).toEqual({ use: 'source-maps', out: 'plain' });
  });

  it('the build made a cache that this Node accepts for dist/cli-main.cjs', () => {
    const bundle = resolve(__dirname, '../../../dist/cli-main.cjs');
    const home = join(dir, 'home');
    const script = `const { runBundle } = require(${JSON.stringify(LOADER)}); process.argv = [process.execPath, 'lookout', 'status', '--json']; process.stderr.write('use=' + runBundle(${JSON.stringify(bundle)}, require) + '\\n');`;
    const env = { PATH: process.env.PATH ?? '', HOME: home, CLAUDE_CONFIG_DIR: join(home, 'c'), CODEX_HOME: join(home, 'x'), LOOKOUT_HOME: join(home, 'l') };
    const result = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', env });
    expect(result.stderr).toContain('use=accepted');
    expect(JSON.parse(result.stdout)).toMatchObject({ schemaVersion: 1, sessions: [] });
  });

  it('the bundles are one-byte text (a comment with § would make Node decode and scan all of it as two-byte)', () => {
    for (const name of ['cli.cjs', 'cli-main.cjs', 'tray.cjs', 'preload.cjs']) {
      const text = readFileSync(resolve(__dirname, '../../../dist', name), 'utf8');
      expect(text.length).toBeGreaterThan(0);
      expect(/[^\x00-\x7f]/.test(text), name).toBe(false);
    }
  });
});
