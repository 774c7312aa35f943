// Builds every bundle with esbuild: the opencode plugin's text, the command line, the tray app,
// its preload, the popover.
// Entries that do not exist yet are skipped, so a partial tree still builds.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writePluginModules } from './plugin-bundle.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const at = (path) => join(root, path);

// jsonc-parser's `main` is a UMD build whose requires esbuild cannot follow: its ES module build is bundled instead.
export const NODE_ALIASES = { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' };
// A native module is loaded from node_modules at run time (its binary is found beside its own files).
export const NODE_EXTERNALS = ['@photostructure/sqlite'];
// The version every bundle reports (src/main/text/version.ts): package.json's, one source.
const version = JSON.parse(readFileSync(at('package.json'), 'utf8')).version;
const node = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: 'linked',
  logLevel: 'warning',
  alias: NODE_ALIASES,
  external: NODE_EXTERNALS,
  define: { LOOKOUT_VERSION_BUILT: JSON.stringify(version) },
};
const entries = [
  // The executable is a small loader; the command line runs from cli-main.cjs and its code cache.
  { entry: 'src/main/commands/cli-entry.ts', out: 'dist/cli.cjs', options: { ...node, banner: { js: '#!/usr/bin/env node' } } },
  { entry: 'src/main/commands/cli.ts', out: 'dist/cli-main.cjs', options: node },
  { entry: 'scripts/bench/bench.ts', out: 'dist/bench.cjs', options: node },
  // Electron's main process: electron itself is provided at run time; node-notifier finds its vendor binaries by __dirname.
  { entry: 'src/tray/main.ts', out: 'dist/tray.cjs', options: { ...node, external: ['electron', 'node-notifier', ...NODE_EXTERNALS] } },
  { entry: 'src/tray/preload.ts', out: 'dist/preload.cjs', options: { ...node, external: ['electron'] } },
  {
    entry: 'src/popover/main.tsx',
    out: 'dist/popover/app.js',
    options: {
      bundle: true,
      platform: 'browser',
      format: 'iife',
      target: 'chrome120',
      jsx: 'automatic',
      jsxImportSource: 'preact',
      minify: true,
      logLevel: 'warning',
    },
  },
];

// esbuild escapes non-ASCII in strings but keeps comments as written: one `§` makes Node decode the
// whole bundle into a two-byte string, read and scanned at about half the speed (`status` starts
// ~10 ms later). A \\u escape means the same character in a string, template, regex or identifier.
function oneByte(file) {
  const text = readFileSync(file, 'utf8');
  const ascii = text.replace(/[^\x00-\x7f]/g, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (ascii !== text) writeFileSync(file, ascii);
}

// The opencode plugin's and the Pi extension's texts first: the command line's bundle carries them (plugin-bundle.mjs).
for (const path of await writePluginModules()) console.log(`build: ${path} regenerated from its source`);

// A cache is never left beside a bundle it was not made from, even when a later step fails.
rmSync(at('dist/cli-main.cjs.cache'), { force: true });
for (const { entry, out, options } of entries) {
  if (!existsSync(at(entry))) continue;
  mkdirSync(dirname(at(out)), { recursive: true });
  await build({ ...options, entryPoints: [at(entry)], outfile: at(out) });
  if (options.platform === 'node') oneByte(at(out));
}
for (const file of ['index.html', 'popover.css']) {
  const source = at(`src/popover/${file}`);
  if (existsSync(source)) copyFileSync(source, at(`dist/popover/${file}`));
}

// V8's code cache for the command line, made by this Node: one `status` over empty folders runs
// the start-up path, and the cache written at its exit holds what that compiled.
if (existsSync(at('dist/cli-main.cjs'))) {
  const empty = mkdtempSync(join(tmpdir(), 'lookout-build-'));
  try {
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: empty,
      CLAUDE_CONFIG_DIR: join(empty, 'claude'),
      CODEX_HOME: join(empty, 'codex'),
      LOOKOUT_HOME: join(empty, 'home'),
      LOOKOUT_WRITE_CODE_CACHE: '1',
    };
    const run = spawnSync(process.execPath, [at('dist/cli.cjs'), 'status', '--json'], { env, encoding: 'utf8' });
    if (run.status !== 0) console.warn(`build: no code cache for the command line (status exited ${run.status}: ${run.stderr.trim()})`);
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
}
