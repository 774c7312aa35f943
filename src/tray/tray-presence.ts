// Whether a tray icon can be seen here (issue 16). Stock GNOME shows none: Electron's icon is a
// StatusNotifierItem, and without the AppIndicator extension nothing on the session bus watches
// for one. Then Lookout says so once and keeps its window open on top instead of showing nothing.
// Other Linux desktops without a watcher (XFCE, MATE) show Electron's older XEmbed icon.

export type TrayPresence = 'visible' | 'hidden' | 'unknown';

/** Asks the session bus whether a StatusNotifierWatcher is there: `gdbus` output, or null when it could not be asked. */
export type BusAsk = () => string | null;

export function gdbusWatcherAsk(): string | null {
  try {
    return process
      .getBuiltinModule('node:child_process')
      .execFileSync(
        'gdbus',
        [
          'call',
          '--session',
          '--dest',
          'org.freedesktop.DBus',
          '--object-path',
          '/org/freedesktop/DBus',
          '--method',
          'org.freedesktop.DBus.NameHasOwner',
          'org.kde.StatusNotifierWatcher',
        ],
        { encoding: 'utf8', timeout: 2000, stdio: ['ignore', 'pipe', 'ignore'] },
      );
  } catch {
    return null;
  }
}

export function trayPresence(platform: NodeJS.Platform, env: NodeJS.ProcessEnv, ask: BusAsk): TrayPresence {
  if (platform !== 'linux') return 'visible';
  const desktops = (env.XDG_CURRENT_DESKTOP ?? '').toUpperCase().split(':');
  if (!desktops.includes('GNOME')) return 'visible';
  const answer = ask();
  if (answer === null) return 'unknown';
  if (answer.includes('true')) return 'visible';
  return answer.includes('false') ? 'hidden' : 'unknown';
}

export const NO_TRAY_LINE =
  'lookout: this desktop shows no tray icons (GNOME without the AppIndicator extension), so Lookout keeps its window open on top instead; install the "AppIndicator and KStatusNotifierItem Support" extension for the icon';
