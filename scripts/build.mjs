// Builds every bundle with esbuild: the command line, the tray app, its preload, the popover.
// Entries that do not exist yet are skipped, so a partial tree still builds.
import { build } from 'esbuild';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const at = (path) => join(root, path);

const node = { bundle: true, platform: 'node', target: 'node20', format: 'cjs', sourcemap: 'linked', logLevel: 'warning' };
const entries = [
  { entry: 'src/main/cli.ts', out: 'dist/cli.cjs', options: { ...node, banner: { js: '#!/usr/bin/env node' } } },
  { entry: 'scripts/bench/bench.ts', out: 'dist/bench.cjs', options: node },
  // Electron's main process: electron itself is provided at run time; node-notifier finds its vendor binaries by __dirname.
  { entry: 'src/tray/main.ts', out: 'dist/tray.cjs', options: { ...node, external: ['electron', 'node-notifier'] } },
  { entry: 'src/tray/preload.ts', out: 'dist/preload.cjs', options: { ...node, external: ['electron'] } },
  {
    entry: 'src/popover/main.tsx',
    out: 'dist/popover/app.js',
    options: { bundle: true, platform: 'browser', format: 'iife', target: 'chrome120', jsx: 'automatic', jsxImportSource: 'preact', minify: true, logLevel: 'warning' },
  },
];

for (const { entry, out, options } of entries) {
  if (!existsSync(at(entry))) continue;
  mkdirSync(dirname(at(out)), { recursive: true });
  await build({ ...options, entryPoints: [at(entry)], outfile: at(out) });
}
for (const file of ['index.html', 'popover.css']) {
  const source = at(`src/popover/${file}`);
  if (existsSync(source)) copyFileSync(source, at(`dist/popover/${file}`));
}
