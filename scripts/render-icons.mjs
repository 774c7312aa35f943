// Renders the app icon PNGs in assets/ from the badge's own drawing code (src/tray/badge.ts,
// pure pngjs, no downloads), so they are reproducible: `node scripts/render-icons.mjs`.
// test/tray/badge.test.ts fails when the committed PNGs differ from what this writes.
import { build } from 'esbuild';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const SIZES = [256, 512];

const scratch = mkdtempSync(join(tmpdir(), 'lookout-icons-'));
try {
  const bundle = join(scratch, 'badge.cjs');
  await build({
    entryPoints: [join(root, 'src/tray/badge.ts')],
    outfile: bundle,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    logLevel: 'warning',
  });
  const { drawAppIcon } = createRequire(import.meta.url)(bundle);
  for (const size of SIZES) {
    const out = join(root, 'assets', `icon-${size}.png`);
    writeFileSync(out, drawAppIcon(size));
    console.log(`wrote ${out}`);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
