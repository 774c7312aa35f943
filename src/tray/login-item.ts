// Start at login (issue 16): on Linux an XDG autostart entry (~/.config/autostart/lookout.desktop,
// removed when turned off); on macOS and Windows Electron's login items. The tray menu's check
// mark reads the true state: whether the entry on disk would launch, or what the system says.
import { accessSync, constants, existsSync, rmSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, isAbsolute, join } from 'node:path';
import { writePrivate } from '../providers/system/private-files';
import { launcherFor, launcherPath, needsLauncher, readSmall, removeLauncher, writeLauncher } from './autostart-launcher';
import { desktopEntryKeys, execArgument, execProgram, keyFileString } from './desktop-exec';

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
  const config = env.XDG_CONFIG_HOME?.startsWith('/') ? env.XDG_CONFIG_HOME : join(env.HOME ?? homedir(), '.config');
  return join(config, 'autostart', 'lookout.desktop');
}

export function desktopEntry(command: readonly string[]): string {
  // A value of a desktop entry is one line: a newline in a path would end it.
  const exec = command
    .map((part) => execArgument(part.replace(/[\r\n]/g, ' ')))
    .join(' ')
    .replace(/%/g, '%%');
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Name=Lookout',
    'Comment=Which AI coding-agent sessions need you',
    `Exec=${exec}`,
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    MARK,
    '',
  ].join('\n');
}

/** The command that starts this app again: the AppImage itself, else Electron with the app's script when run unpackaged. */
export function launchCommand(env: NodeJS.ProcessEnv, execPath: string, argv: readonly string[], unpackaged: boolean): string[] {
  if (env.APPIMAGE?.startsWith('/')) return [env.APPIMAGE];
  const script = argv[1];
  return unpackaged && script !== undefined ? [execPath, script] : [execPath];
}

/** An executable regular file: GLib's test for an entry's program (a bare name is looked for on PATH). */
function programFound(program: string, env: NodeJS.ProcessEnv): boolean {
  const candidates = program.includes('/')
    ? isAbsolute(program)
      ? [program]
      : []
    : (env.PATH ?? '')
        .split(delimiter)
        .filter((dir) => isAbsolute(dir))
        .map((dir) => join(dir, program));
  return candidates.some((path) => {
    try {
      accessSync(path, constants.X_OK);
      return statSync(path).isFile();
    } catch {
      return false;
    }
  });
}

export function xdgAutostart(env: NodeJS.ProcessEnv, command: readonly string[]): LoginItem {
  const path = autostartPath(env);
  const launcher = launcherPath(env);
  const read = (): string | null => readSmall(path);
  const ours = (): boolean => read()?.split('\n').includes(MARK) ?? false;
  // Whether the desktop would start this entry: ours, not switched off, and its program there (as
  // GLib checks it, before `%%` is expanded); through the launcher only while it starts this app.
  const wouldLaunch = (): boolean => {
    const text = read();
    if (text === null || !text.split('\n').includes(MARK)) return false;
    const keys = desktopEntryKeys(text);
    if (keys.get('X-GNOME-Autostart-enabled') === 'false' || keys.get('Hidden') === 'true') return false;
    const tryExec = keys.get('TryExec');
    const tried = tryExec === undefined ? null : keyFileString(tryExec);
    if (tryExec !== undefined && (tried === null || !programFound(tried, env))) return false;
    const program = execProgram(text);
    if (program === null || !programFound(program, env)) return false;
    return program !== launcher || (launcherFor(launcher, command) && programFound(command[0] ?? '', env));
  };
  return {
    enabled: wouldLaunch,
    set(on) {
      if (!on) {
        if (existsSync(path) && ours()) rmSync(path);
        removeLauncher(launcher);
        return;
      }
      const viaLauncher = needsLauncher(command);
      // The launcher first: one that cannot be written leaves no entry behind.
      if (viaLauncher) writeLauncher(launcher, command);
      writePrivate(path, desktopEntry(viaLauncher ? [launcher] : command));
      if (!viaLauncher) removeLauncher(launcher);
    },
  };
}

function electronLoginItem(items: ElectronLoginItems): LoginItem {
  return {
    enabled: () => items.getLoginItemSettings().openAtLogin,
    set: (on) => items.setLoginItemSettings({ openAtLogin: on }),
  };
}

/** Linux: the XDG entry; elsewhere Electron's. */
export function loginItemFor(platform: NodeJS.Platform, env: NodeJS.ProcessEnv, items: ElectronLoginItems, command: readonly string[]): LoginItem {
  return platform === 'linux' ? xdgAutostart(env, command) : electronLoginItem(items);
}
