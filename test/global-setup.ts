// Builds the bundles once before the suite, so process-level tests run the code under test.
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

/** Helper processes some tests start, bundled like the product so they run the same code. */
export const HELPERS = resolve(__dirname, '../test-artifacts/helpers');

export default async function setup(): Promise<void> {
  execFileSync(process.execPath, [resolve(__dirname, '../scripts/build.mjs')], { stdio: 'inherit' });
  const { build } = await import('esbuild');
  await build({
    entryPoints: {
      'store-writer': resolve(__dirname, 'main/store-writer.ts'),
      'notify-helper': resolve(__dirname, 'main/notify-helper.ts'),
      'lock-holder': resolve(__dirname, 'main/lock-holder.ts'),
      // tray-presence.ts as a module, for a process inside its own D-Bus session.
      'tray-presence-helper': resolve(__dirname, '../src/tray/tray-presence.ts'),
    },
    outdir: HELPERS,
    outExtension: { '.js': '.cjs' },
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    logLevel: 'warning',
  });
  // The command line with a fake provider added through the registry alone (test/providers/registry.test.ts).
  const { buildFakeCli } = await import('./providers/fake/registry-plugin');
  await buildFakeCli();
}
