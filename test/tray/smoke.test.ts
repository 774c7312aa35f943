// Launches the real tray app where an Electron binary and a display exist; elsewhere it skips and
// says why (these machines cannot download Electron's binary).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

function electronBinary(): string | null {
  try {
    const root = dirname(require.resolve('electron/package.json'));
    const pathFile = join(root, 'path.txt');
    if (!existsSync(pathFile)) return null;
    const binary = join(root, 'dist', readFileSync(pathFile, 'utf8').trim());
    return existsSync(binary) ? binary : null;
  } catch {
    return null;
  }
}

const binary = electronBinary();
const display = process.env.DISPLAY ?? process.env.WAYLAND_DISPLAY ?? (process.platform === 'darwin' ? 'macOS' : undefined);
const why =
  binary === null
    ? 'no Electron binary is installed (node_modules/electron has no downloaded binary)'
    : display === undefined
      ? 'no display (set DISPLAY, e.g. under Xvfb)'
      : null;
if (why !== null) console.log(`tray smoke test skipped: ${why}`);

describe.skipIf(why !== null)('tray app smoke test (real Electron)', () => {
  it('starts, shows its tray and popover window, and quits', async () => {
    const { _electron } = await import('playwright-core');
    const app = await _electron.launch({
      executablePath: binary ?? '',
      args: [resolve(__dirname, '../../dist/tray.cjs')],
      env: { ...process.env, LOOKOUT_HOME: resolve(__dirname, '../../test-artifacts/smoke-home') },
    });
    const window = await app.firstWindow();
    await window.waitForSelector('.popover');
    expect(await window.title()).toBe('Lookout');
    await app.close();
  }, 60_000);
});
