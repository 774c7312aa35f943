// Issue 16: the XDG autostart entry's text. A path with spaces or shell characters is quoted as the
// desktop entry specification says; a user's own lookout.desktop (without our mark) is never removed.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { autostartPath, desktopEntry, launchCommand, xdgAutostart } from '../../src/tray/login-item';
import { execArgument, execProgram } from '../../src/tray/desktop-exec';

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
    expect(launchCommand({}, '/usr/lib/electron/electron', ['/usr/lib/electron/electron', '/home/me/lookout/dist/tray.cjs'], true)).toEqual([
      '/usr/lib/electron/electron',
      '/home/me/lookout/dist/tray.cjs',
    ]);
    expect(launchCommand({}, '/opt/Lookout/lookout', ['/opt/Lookout/lookout'], false)).toEqual(['/opt/Lookout/lookout']);
  });

  it("lives under XDG_CONFIG_HOME, else ~/.config; a user's own entry of that name is left alone", () => {
    expect(autostartPath({ XDG_CONFIG_HOME: '/x/config', HOME: '/home/me' })).toBe('/x/config/autostart/lookout.desktop');
    expect(autostartPath({ HOME: '/home/me' })).toBe('/home/me/.config/autostart/lookout.desktop');
    expect(autostartPath({ XDG_CONFIG_HOME: 'relative', HOME: '/home/me' })).toBe('/home/me/.config/autostart/lookout.desktop');
    const env = { XDG_CONFIG_HOME: join(base, 'config'), LOOKOUT_HOME: join(base, 'home') };
    mkdirSync(join(base, 'config', 'autostart'), { recursive: true });
    const own = '[Desktop Entry]\nType=Application\nName=My lookout\nExec=/usr/bin/my-lookout\n';
    writeFileSync(autostartPath(env), own);
    // A program that is there: the check mark reads whether the entry would launch (issue 25).
    const item = xdgAutostart(env, [process.execPath]);
    expect(item.enabled()).toBe(false);
    item.set(false);
    expect(readFileSync(autostartPath(env), 'utf8')).toBe(own);
    item.set(true);
    expect(item.enabled()).toBe(true);
    item.set(false);
    expect(existsSync(autostartPath(env))).toBe(false);
  });

  it('issue 25 item 12: the program GLib looks for is read back from Exec as it parses it', () => {
    for (const path of ['/opt/Lookout/lookout', '/home/me/My Apps/x', '/home/me/$(x)/`y`/"z"\\w', "/home/it's/a\tb", '/a\\"b/\\$c'])
      expect(execProgram(desktopEntry([path, '--flag']))).toBe(path);
    // Before `%%` is expanded: GLib looks for this path, which is not the program's.
    expect(execProgram(desktopEntry(['/home/me/100% sure/lookout']))).toBe('/home/me/100%% sure/lookout');
    expect(execProgram('[Desktop Entry]\nExec="/unterminated\n')).toBeNull();
    expect(execProgram('[Other]\nExec=/x\n[Desktop Entry]\nName=y\n')).toBeNull();
  });

  const hasGio = spawnSync('sh', ['-c', 'command -v gio']).status === 0;
  it('issue 25 item 12: an app path with % starts at login through a private launcher, and the check mark says whether the entry would launch', async () => {
    const root = join(base, 'percent');
    const app = join(root, '100% sure', 'lookout');
    const started = join(root, 'started');
    mkdirSync(dirname(app), { recursive: true });
    writeFileSync(app, `#!/bin/sh\n: > '${started}'\n`, { mode: 0o700 });
    const env = { XDG_CONFIG_HOME: join(root, 'config'), LOOKOUT_HOME: join(root, 'home'), PATH: '/usr/bin:/bin', HOME: root };
    // The entry as issue 16 wrote it: right by the specification, but GLib finds no `100%% sure`.
    mkdirSync(join(root, 'config', 'autostart'), { recursive: true });
    writeFileSync(autostartPath(env), desktopEntry([app]));
    const item = xdgAutostart(env, [app]);
    expect(item.enabled()).toBe(false);
    item.set(true);
    expect(item.enabled()).toBe(true);
    const launcher = execProgram(readFileSync(autostartPath(env), 'utf8')) ?? '';
    expect(launcher.startsWith(join(root, 'home'))).toBe(true);
    expect(launcher).not.toContain('%');
    expect(statSync(launcher).mode & 0o777).toBe(0o700);
    expect(statSync(dirname(launcher)).mode & 0o777).toBe(0o700);
    expect(readdirSync(dirname(launcher)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    // GLib itself accepts the entry and starts the app (where gio is installed; else the launcher is run).
    const launched = hasGio ? spawnSync('gio', ['launch', autostartPath(env)], { env, encoding: 'utf8' }) : spawnSync(launcher, [], { env, encoding: 'utf8' });
    expect(launched.status, launched.stderr).toBe(0);
    await vi.waitFor(() => expect(existsSync(started)).toBe(true), { timeout: 10_000 });
    // A launcher gone (or the app moved) means the entry would not launch: the mark says so.
    rmSync(launcher);
    expect(item.enabled()).toBe(false);
    item.set(true);
    expect(xdgAutostart(env, [join(root, 'moved', 'lookout')]).enabled()).toBe(false);
    item.set(false);
    expect(existsSync(autostartPath(env))).toBe(false);
    expect(existsSync(launcher)).toBe(false);
    // Lookout's own folder has a % too: a clear error, and no entry that would never start.
    const stuck = xdgAutostart({ ...env, LOOKOUT_HOME: join(root, '50% home') }, [app]);
    expect(() => stuck.set(true)).toThrow(/has a % .*set LOOKOUT_HOME to a folder without one/);
    expect(existsSync(autostartPath(env))).toBe(false);
    expect(stuck.enabled()).toBe(false);
    // Read on every right-click: a FIFO in the entry's place reads as off at once, never blocks the tray.
    expect(spawnSync('mkfifo', [autostartPath(env)]).status).toBe(0);
    expect(item.enabled()).toBe(false);
  });
});
