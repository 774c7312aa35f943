// The Electron shell: tray icon with its badge, the popover window (menubar), the context menu,
// notifications, IPC. Thin: everything it shows comes from the runtime through the popover host.
import type {
  App,
  BrowserWindowConstructorOptions,
  IpcMain,
  Menu,
  MenuItemConstructorOptions,
  NativeImage,
  Notification,
  NotificationConstructorOptions,
  Tray,
} from 'electron';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Snapshot } from '../engine';
import { nextLocal } from '../engine';
import { PopoverHost } from '../main/popover/popover-host';
import { Runtime } from '../main/runtime/runtime';
import { systemClock } from '../main/pipeline/clock';
import { badgeImages } from './badge';
import { ElectronNotifier } from './electron-notifier';
import type { ShortcutPort } from './global-key';
import { GlobalKey } from './global-key';
import { launchCommand, loginItemFor } from './login-item';
import type { BusAsk } from './tray-presence';
import { NO_TRAY_LINE, gdbusWatcherAsk, trayPresence } from './tray-presence';
import { registerIpc } from './ipc';
import type { MenuAction } from './tray-model';
import { contextMenu, limitLines, tooltip, trayTitle } from './tray-model';
import { PROVIDERS } from '../providers';
import { lookoutHome } from '../main/store/home';
import { lookoutHomeProblem } from '../main/store/private-home';
import type { PowerPort } from './away-watch';
import { AwayWatch } from './away-watch';

/** The parts of Electron the shell uses, passed in so the wiring is tested with fakes. */
export interface ElectronParts {
  app: Pick<App, 'requestSingleInstanceLock' | 'quit' | 'on' | 'getLoginItemSettings' | 'setLoginItemSettings' | 'whenReady'> & { dock?: { hide(): void } };
  ipcMain: Pick<IpcMain, 'handle' | 'on' | 'removeHandler' | 'removeAllListeners'>;
  createTray: (image: NativeImage) => Tray;
  image: (x1: Buffer, x2: Buffer, template: boolean) => NativeImage;
  buildMenu: (template: MenuItemConstructorOptions[]) => Menu;
  notification: (options: NotificationConstructorOptions) => Notification;
  notificationsSupported: () => boolean;
  globalShortcut: ShortcutPort;
  /** The platform the shell acts for (tests pass one; Electron's own otherwise). */
  platform?: NodeJS.Platform;
  /** Asks the session bus for a tray watcher (Linux; tray-presence.ts). */
  askBus?: BusAsk;
  /** Electron's powerMonitor: idle time and screen lock, for "phone only when away" (issue 49). */
  powerMonitor?: PowerPort;
}

export interface PopoverWindow {
  window: { webContents: Electron.WebContents; on(event: 'hide', listener: () => void): void; setAlwaysOnTop(flag: boolean): void } | undefined;
  showWindow(): Promise<void> | void;
  hideWindow(): void;
  on(event: 'after-create-window', listener: () => void): void;
}

export type MenubarFactory = (options: {
  tray: Tray;
  index: string;
  browserWindow: BrowserWindowConstructorOptions;
  preloadWindow: boolean;
  showDockIcon: boolean;
  tooltip: string;
}) => PopoverWindow;

const WINDOW: BrowserWindowConstructorOptions = {
  width: 380,
  height: 560,
  minWidth: 320,
  minHeight: 240,
  resizable: true,
  show: false,
  webPreferences: { contextIsolation: true, nodeIntegration: false, sandbox: true, webSecurity: true, spellcheck: false },
};

export interface TrayApp {
  runtime: Runtime;
  host: PopoverHost;
  act(action: MenuAction): void;
  dispose(): Promise<void>;
}

export async function startTray(electron: ElectronParts, menubar: MenubarFactory, distDir: string, env: NodeJS.ProcessEnv): Promise<TrayApp | null> {
  const { app } = electron;
  // One Lookout per user: a second launch just quits.
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return null;
  }
  // A home another user owns or can write is refused here as by the command line (issue 47 item 4).
  const homeProblem = lookoutHomeProblem(lookoutHome(env));
  if (homeProblem !== null) throw new Error(homeProblem);
  await app.whenReady();
  app.dock?.hide();
  const clock = systemClock;
  const problems: string[] = [];
  let host: PopoverHost | null = null;
  const runtime = new Runtime({
    env,
    clock,
    notifier: new ElectronNotifier(electron.notification, electron.notificationsSupported),
    onProblem: (line) => (host === null ? problems.push(line) : host.addProblem(line)),
    // The tray can tell when the person is away: phone.json's "away" mode sends then (R91).
    phone: { awayKnown: electron.powerMonitor !== undefined },
    // One session: opened; a digest's several: the popover, the first of them selected in its group.
    onOpen: (keys) => {
      const [first] = keys;
      if (first === undefined) return;
      if (keys.length === 1) host?.openFromNotification(first);
      else {
        host?.requestView('list', { select: first });
        void shown?.showWindow();
      }
    },
  });
  // The app's own sandboxed window may edit the open template (the user's settings view).
  host = new PopoverHost(runtime, clock, true);
  for (const line of problems) host.addProblem(line);

  const icon = (snapshot: Snapshot | null): NativeImage => {
    const images = badgeImages(snapshot?.attention.level ?? 'none', snapshot?.attention.count ?? 0);
    return electron.image(images.x1.png, images.x2.png, images.template);
  };
  // The popover window, once made (a digest's click shows it).
  let shown: PopoverWindow | null = null;
  const tray = electron.createTray(icon(null));
  const pageUrl = pathToFileURL(join(distDir, 'popover', 'index.html')).toString();
  const popover = menubar({
    tray,
    index: pageUrl,
    browserWindow: { ...WINDOW, webPreferences: { ...WINDOW.webPreferences, preload: join(distDir, 'preload.cjs') } },
    preloadWindow: true,
    showDockIcon: false,
    tooltip: 'Lookout',
  });
  shown = popover;
  popover.on('after-create-window', () => {
    const window = popover.window;
    if (window === undefined) return;
    // The popover never navigates away and never opens windows.
    window.webContents.on('will-navigate', (event) => event.preventDefault());
    window.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));
    // Hidden, nothing is on screen: notifications and ready-for-review apply again (R40).
    window.on('hide', () => void host?.command({ type: 'select', key: null }));
  });
  const disposeIpc = registerIpc({ ipc: electron.ipcMain, popover: () => popover.window?.webContents, pageUrl, host, hide: () => popover.hideWindow() });

  // This machine's rows and every host's (the runtime's published snapshot).
  const show = (snapshot: Snapshot | null): void => {
    tray.setImage(icon(snapshot));
    tray.setToolTip(snapshot === null ? 'Lookout' : tooltip(snapshot));
    if (process.platform === 'darwin') tray.setTitle(snapshot === null ? '' : trayTitle(snapshot));
  };
  // The global key: the popover with the next session wanting attention selected (issue 15).
  const globalKey = new GlobalKey(
    electron.globalShortcut,
    process.platform,
    () => {
      host?.requestView('list', { jump: true });
      void popover.showWindow();
    },
    (line) => host?.addProblem(line),
  );
  runtime.onSnapshot((snapshot) => {
    show(snapshot);
    // settings.json may have changed the key.
    globalKey.apply(runtime.shortcut);
  });

  // The true state of starting at login: the XDG entry on disk (Linux), else the system's word.
  const loginItem = loginItemFor(
    electron.platform ?? process.platform,
    env,
    app,
    launchCommand(env, process.execPath, process.argv, process.defaultApp === true),
  );
  const act = (action: MenuAction): void => {
    switch (action) {
      case 'open':
        void popover.showWindow();
        return;
      case 'mute-all-1h':
        host?.muteAll(3_600_000);
        return;
      case 'settings':
        host?.requestView('settings');
        void popover.showWindow();
        return;
      case 'pause-1h':
      case 'pause-tomorrow':
      case 'resume': {
        // Quiet from the tray (issue 16): "until tomorrow" ends where quiet hours end, else at 08:00.
        const now = clock();
        const quiet = runtime.settings.quietHours;
        const until = action === 'resume' ? null : action === 'pause-1h' ? now + 3_600_000 : nextLocal(now, quiet?.to ?? '08:00', quiet?.timeZone ?? null);
        try {
          runtime.facts.pause(until, now);
        } catch (error) {
          host?.addProblem(`lookout: could not pause notifications: ${error instanceof Error ? error.message : String(error)}`);
        }
        runtime.evaluateNow();
        return;
      }
      case 'start-at-login':
        // A launcher or entry that cannot be written is said once, not thrown from a menu click.
        try {
          loginItem.set(!loginItem.enabled());
        } catch (error) {
          host?.addProblem(`lookout: ${error instanceof Error ? error.message : String(error)}`);
        }
        return;
      case 'quit':
        app.quit();
        return;
    }
  };
  tray.on('right-click', () => {
    const paused = runtime.facts.facts.pausedUntil;
    const pausedUntil = paused !== null && paused > clock() ? new Date(paused).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }) : null;
    const clockOf = (ms: number): string => new Date(ms).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
    const names = Object.fromEntries(PROVIDERS.map((provider) => [provider.id, provider.shortName]));
    const limits = runtime.snapshot === null ? [] : limitLines(runtime.snapshot, names, clockOf);
    const items = contextMenu(loginItem.enabled(), pausedUntil, limits).map(
      (item): MenuItemConstructorOptions => ({
        label: item.label,
        ...(item.checked === undefined ? {} : { type: 'checkbox' as const, checked: item.checked }),
        click: () => act(item.action),
      }),
    );
    tray.popUpContextMenu(electron.buildMenu(items));
  });
  // A tray app lives on with no window open.
  app.on('window-all-closed', () => undefined);
  const away =
    electron.powerMonitor === undefined
      ? null
      : new AwayWatch(
          electron.powerMonitor,
          () => runtime.settings.timings.awayAfter,
          (now) => runtime.setAway(now),
        );
  const dispose = async (): Promise<void> => {
    away?.dispose();
    globalKey.dispose();
    disposeIpc();
    await runtime.dispose();
  };
  app.on('before-quit', () => void dispose());

  await runtime.start();
  show(runtime.snapshot);
  globalKey.apply(runtime.shortcut);
  // No tray to be seen (stock GNOME): said once, and the window stays open on top instead (issue 16).
  if (trayPresence(electron.platform ?? process.platform, env, electron.askBus ?? gdbusWatcherAsk) === 'hidden') {
    host.addProblem(NO_TRAY_LINE);
    await popover.showWindow();
    popover.window?.setAlwaysOnTop(true);
  }
  return { runtime, host, act, dispose };
}
