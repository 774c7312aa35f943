// Issue 16: the XDG autostart entry's text. A path with spaces or shell characters is quoted as the
// desktop entry specification says; a user's own lookout.desktop (without our mark) is never removed.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { autostartPath, desktopEntry, execArgument, launchCommand, xdgAutostart } from '../../src/tray/login-item';

const base = mkdtempSync(join(tmpdir(), 'lookout-autostart-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('XDG autostart (issue 16)', () => {
  it('quotes Exec arguments as the desktop entry specification says', () => {
    expect(execArgument('/opt/Lookout/lookout')).toBe('/opt/Lookout/lookout');
    expect(execArgument('/home/me/My Apps/Lookout.AppImage')).toBe('"/home/me/My Apps/Lookout.AppImage"');
    // Quoted as the Exec rules say (\$, \`, \", \\), then each backslash doubled for the string value.
    expect(execArgument('/home/me/$(x)/`y`/"z"\\w')).toBe('"/home/me/\\\\$(x)/\\\\`y\\\\`/\\\\"z\\\\"\\\\\\\\w"');
    expect(desktopEntry(['/home/me/100% sure/lookout'])).toContain('Exec="/home/me/100%% sure/lookout"\n');
    expect(desktopEntry(['/a\nExec=evil'])).not.toContain('\nExec=evil');
  });

  it('the command: the AppImage, else Electron with the script when unpackaged', () => {
    expect(launchCommand({ APPIMAGE: '/home/me/Lookout.AppImage' }, '/tmp/.mount_x/lookout', ['x'], false)).toEqual(['/home/me/Lookout.AppImage']);
    expect(launchCommand({}, '/usr/lib/electron/electron', ['/usr/lib/electron/electron', '/home/me/lookout/dist/tray.cjs'], true)).toEqual(['/usr/lib/electron/electron', '/home/me/lookout/dist/tray.cjs']);
    expect(launchCommand({}, '/opt/Lookout/lookout', ['/opt/Lookout/lookout'], false)).toEqual(['/opt/Lookout/lookout']);
  });

  it('lives under XDG_CONFIG_HOME, else ~/.config; a user\'s own entry of that name is left alone', () => {
    expect(autostartPath({ XDG_CONFIG_HOME: '/x/config', HOME: '/home/me' })).toBe('/x/config/autostart/lookout.desktop');
    expect(autostartPath({ HOME: '/home/me' })).toBe('/home/me/.config/autostart/lookout.desktop');
    expect(autostartPath({ XDG_CONFIG_HOME: 'relative', HOME: '/home/me' })).toBe('/home/me/.config/autostart/lookout.desktop');
    const env = { XDG_CONFIG_HOME: join(base, 'config') };
    mkdirSync(join(base, 'config', 'autostart'), { recursive: true });
    const own = '[Desktop Entry]\nType=Application\nName=My lookout\nExec=/usr/bin/my-lookout\n';
    writeFileSync(autostartPath(env), own);
    const item = xdgAutostart(env, ['/opt/lookout']);
    expect(item.enabled()).toBe(false);
    item.set(false);
    expect(readFileSync(autostartPath(env), 'utf8')).toBe(own);
    item.set(true);
    expect(item.enabled()).toBe(true);
    item.set(false);
    expect(existsSync(autostartPath(env))).toBe(false);
  });
});
