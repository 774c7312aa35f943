// Builds the command line with the fake provider registered through the registry alone: an
// esbuild plugin adds one entry to the list in src/providers/index.ts and touches nothing else.
import { copyFileSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Plugin } from 'esbuild';

const REGISTRY = resolve(__dirname, '../../../src/providers/index.ts');
const FAKE = resolve(__dirname, 'descriptor.ts');
const LIST = 'export const PROVIDERS: readonly ProviderDescriptor[] = [';

/** The registry's text with the fake descriptor appended to the list. */
export function withFake(text: string): string {
  if (!text.includes(LIST)) throw new Error(`the registry no longer declares its list as "${LIST}…"`);
  return `import { parrotDescriptor } from ${JSON.stringify(FAKE)};\n${text.replace(LIST, `${LIST}parrotDescriptor, `)}`;
}

const plugin: Plugin = {
  name: 'fake-provider',
  setup(build) {
    build.onLoad({ filter: /src[\\/]providers[\\/]index\.ts$/ }, (args) =>
      args.path === REGISTRY ? { contents: withFake(readFileSync(REGISTRY, 'utf8')), loader: 'ts', resolveDir: resolve(REGISTRY, '..') } : undefined,
    );
  },
};

/** Where the fake build lives: a command line (cli.cjs) with the popover beside it. */
export const FAKE_CLI_DIR = resolve(__dirname, '../../../test-artifacts/fake-provider');

export async function buildFakeCli(): Promise<void> {
  const { build } = await import('esbuild');
  await build({
    entryPoints: [resolve(__dirname, '../../../src/main/commands/cli.ts')],
    outfile: join(FAKE_CLI_DIR, 'cli.cjs'),
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    logLevel: 'warning',
    plugins: [plugin],
    alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
    external: ['@photostructure/sqlite'],
  });
  const popover = resolve(__dirname, '../../../dist/popover');
  mkdirSync(join(FAKE_CLI_DIR, 'popover'), { recursive: true });
  for (const name of readdirSync(popover)) copyFileSync(join(popover, name), join(FAKE_CLI_DIR, 'popover', name));
}
