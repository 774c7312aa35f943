// Issue 16: the installable app. These machines cannot download Electron, so the packaging is
// checked as far as it can be without building: electron-builder's own validation of the
// configuration in package.json, the icons it takes (format and size), and the bundle's entry
// points it packs.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../..');
const pkg = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as {
  main: string;
  scripts: Record<string, string>;
  build: Record<string, unknown> & {
    files: string[];
    extraMetadata: { main: string };
    mac: { icon: string; target: { target: string; arch: string[] }[] };
    linux: { icon: string; target: string[] };
    win: { icon: string; target: string };
  };
  devDependencies: Record<string, string>;
};

type Validate = (config: unknown, debug: unknown) => Promise<void>;
async function validate(config: unknown): Promise<void> {
  const { validateConfiguration } = (await import('app-builder-lib/out/util/config/config')) as unknown as { validateConfiguration: Validate };
  // The logger is asked only whether it is on.
  await validateConfiguration(config, { isEnabled: false, add: () => undefined });
}

/** Width, height and colour type of a PNG, from its header. */
function pngHeader(path: string): { width: number; height: number; colorType: number } | null {
  const bytes = readFileSync(path);
  if (!bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return null;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20), colorType: bytes[25] ?? -1 };
}

describe('packaging (issue 16)', () => {
  it('electron-builder (pinned) takes the configuration: a dmg (universal), an AppImage and a deb, a Windows installer', async () => {
    expect(pkg.devDependencies['electron-builder']).toMatch(/^\d+\.\d+\.\d+$/);
    await validate(pkg.build);
    expect(pkg.build.mac.target).toEqual([{ target: 'dmg', arch: ['universal'] }]);
    expect(pkg.build.linux.target).toEqual(['AppImage', 'deb']);
    expect(pkg.build.win.target).toBe('nsis');
    expect(pkg.scripts.dist).toBe('node scripts/build.mjs && electron-builder --publish never');
    // The validation is real: a configuration it does not take is refused.
    await expect(validate({ ...pkg.build, mac: { target: 5 } })).rejects.toThrow(/configuration/i);
  });

  it('the icons it takes from assets/: PNG with alpha, 512 px for macOS and Linux, 256 px for Windows', () => {
    expect(pngHeader(resolve(ROOT, pkg.build.mac.icon))).toEqual({ width: 512, height: 512, colorType: 6 });
    expect(pngHeader(resolve(ROOT, pkg.build.linux.icon))).toEqual({ width: 512, height: 512, colorType: 6 });
    expect(pngHeader(resolve(ROOT, pkg.build.win.icon))).toEqual({ width: 256, height: 256, colorType: 6 });
  });

  it('the entry points it packs exist once built: the tray app, its preload, the popover, the command line', () => {
    expect(pkg.main).toBe('dist/tray.cjs');
    expect(pkg.build.extraMetadata.main).toBe(pkg.main);
    for (const file of pkg.build.files.filter((item) => !item.includes('*'))) expect(existsSync(resolve(ROOT, file)), file).toBe(true);
    for (const file of ['dist/popover/index.html', 'dist/popover/app.js', 'dist/popover/popover.css']) expect(existsSync(resolve(ROOT, file)), file).toBe(true);
  });
});
