// Start at login (issue 16): on Linux an XDG autostart entry (~/.config/autostart/lookout.desktop,
// removed when turned off); on macOS and Windows Electron's login items. The tray menu's check
// mark reads the true state: the entry on disk, or what the system says.
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { writePrivate } from '../providers/system/private-files';

export interface LoginItem {
  enabled(): boolean;
  set(on: boolean): void;
}

/** Electron's login items, as far as the tray uses them. */
export interface ElectronLoginItems {
  getLoginItemSettings(): { openAtLogin: boolean };
  setLoginItemSettings(settings: { openAtLogin: boolean }): void;
}

/** Marks the entry as Lookout's own: only such a file is ever removed. */
const MARK = 'X-Lookout-Autostart=true';

export function autostartPath(env: NodeJS.ProcessEnv): string {
  const config = env.XDG_CONFIG_HOME !== undefined && env.XDG_CONFIG_HOME.startsWith('/') ? env.XDG_CONFIG_HOME : join(env.HOME ?? homedir(), '.config');
  return join(config, 'autostart', 'lookout.desktop');
}

/**
 * One Exec argument as the desktop entry specification quotes it: `"`, `` ` ``, `$` and `\` escaped
 * inside double quotes; then, since Exec is a string value, each backslash written twice.
 */
export function execArgument(argument: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(argument)) return argument;
  return `"${argument.replace(/[\\"`$]/g, (char) => `\\${char}`)}"`.replace(/\\/g, '\\\\');
}

export function desktopEntry(command: readonly string[]): string {
  // A value of a desktop entry is one line: a newline in a path would end it.
  const exec = command.map((part) => execArgument(part.replace(/[\r\n]/g, ' '))).join(' ').replace(/%/g, '%%');
  return ['[Desktop Entry]', 'Type=Application', 'Name=Lookout', 'Comment=Which AI coding-agent sessions need you', `Exec=${exec}`, 'Terminal=false', 'X-GNOME-Autostart-enabled=true', MARK, ''].join('\n');
}

/** The command that starts this app again: the AppImage itself, else Electron with the app's script when run unpackaged. */
export function launchCommand(env: NodeJS.ProcessEnv, execPath: string, argv: readonly string[], unpackaged: boolean): string[] {
  if (env.APPIMAGE !== undefined && env.APPIMAGE.startsWith('/')) return [env.APPIMAGE];
  const script = argv[1];
  return unpackaged && script !== undefined ? [execPath, script] : [execPath];
}

export function xdgAutostart(env: NodeJS.ProcessEnv, command: readonly string[]): LoginItem {
  const path = autostartPath(env);
  const read = (): string | null => {
    try {
      return readFileSync(path, 'utf8');
    } catch {
      return null;
    }
  };
  const ours = (): boolean => read()?.split('\n').includes(MARK) ?? false;
  return {
    // On only while our entry is there and not switched off by the desktop's own settings.
    enabled: () => {
      const text = read();
      return text !== null && text.split('\n').includes(MARK) && !text.includes('X-GNOME-Autostart-enabled=false');
    },
    set(on) {
      if (on) {
        mkdirSync(join(path, '..'), { recursive: true });
        writePrivate(path, desktopEntry(command));
      } else if (existsSync(path) && ours()) {
        rmSync(path);
      }
    },
  };
}

export function electronLoginItem(items: ElectronLoginItems): LoginItem {
  return {
    enabled: () => items.getLoginItemSettings().openAtLogin,
    set: (on) => items.setLoginItemSettings({ openAtLogin: on }),
  };
}

/** Linux: the XDG entry; elsewhere Electron's. */
export function loginItemFor(platform: NodeJS.Platform, env: NodeJS.ProcessEnv, items: ElectronLoginItems, command: readonly string[]): LoginItem {
  return platform === 'linux' ? xdgAutostart(env, command) : electronLoginItem(items);
}
