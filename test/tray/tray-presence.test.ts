// Issue 16: where no tray icon can be seen (stock GNOME: no StatusNotifierWatcher on the session
// bus), Lookout says so once and keeps its window open on top. The bus is asked for real inside a
// private D-Bus session (skips, saying why, without dbus-run-session and gdbus).
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { trayPresence } from '../../src/tray/tray-presence';

const tools = ['dbus-run-session', 'gdbus'].filter((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0);
if (tools.length > 0) console.log(`tray presence bus test skipped: missing ${tools.join(', ')}`);

describe('tray presence (issue 16)', () => {
  it('only stock GNOME without a watcher is taken for "no tray"; elsewhere, or when the bus cannot be asked, the icon is trusted', () => {
    const gnome = { XDG_CURRENT_DESKTOP: 'ubuntu:GNOME' };
    expect(trayPresence('linux', gnome, () => '(false,)\n')).toBe('hidden');
    expect(trayPresence('linux', gnome, () => '(true,)\n')).toBe('visible');
    expect(trayPresence('linux', gnome, () => null)).toBe('unknown');
    expect(trayPresence('linux', { XDG_CURRENT_DESKTOP: 'XFCE' }, () => '(false,)')).toBe('visible');
    expect(trayPresence('linux', {}, () => '(false,)')).toBe('visible');
    expect(trayPresence('darwin', gnome, () => '(false,)')).toBe('visible');
  });

  it.skipIf(tools.length > 0)('a session bus with no StatusNotifierWatcher reads "hidden" on GNOME', () => {
    // The real question, asked by gdbus inside its own session bus, through a helper that prints the answer.
    const helper = `const { trayPresence, gdbusWatcherAsk } = require(${JSON.stringify(resolve(__dirname, '../../test-artifacts/helpers/tray-presence-helper.cjs'))}); process.stdout.write(trayPresence('linux', { XDG_CURRENT_DESKTOP: 'GNOME' }, gdbusWatcherAsk));`;
    const result = spawnSync('dbus-run-session', ['--', process.execPath, '-e', helper], { encoding: 'utf8', timeout: 30_000 });
    expect(result.stdout, result.stderr).toBe('hidden');
  });
});
