// The desktop side for `doctor`: can the tray app run here (a display, Electron's binary, the
// built app), and which program shows notifications. Nothing is started and nothing is shown,
// except the one test notification `--notify` asks for.
import { execFile } from 'node:child_process';
import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join } from 'node:path';
import type { NotificationPlan } from '../../engine';
import { notifySendArgv, notifySendHasActions } from '../notify/libnotify';
import { NodeNotifier } from '../notify/notifier';
import type { NotificationsReport, TrayReport } from './report';

/** The display the tray would use, as `npm start` decides (scripts/start.mjs): null for none. */
export function displayOf(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string | null {
  if (platform === 'darwin' || platform === 'win32') return 'desktop';
  const wayland = env.WAYLAND_DISPLAY ?? '';
  if (wayland !== '') return `WAYLAND_DISPLAY=${wayland}`;
  const x = env.DISPLAY ?? '';
  return x === '' ? null : `DISPLAY=${x}`;
}

/**
 * Electron's binary as its package would name it, found without loading the package (that
 * would download a missing binary): path.txt beside its package.json names it under dist/.
 */
export function electronBinary(env: NodeJS.ProcessEnv, from: string = __filename): string | null {
  try {
    const folder = dirname(createRequire(from).resolve('electron/package.json'));
    const named = join(folder, 'path.txt');
    if (!existsSync(named)) return null;
    const relative = readFileSync(named, 'utf8').trim();
    const override = env.ELECTRON_OVERRIDE_DIST_PATH ?? '';
    const binary = override === '' ? join(folder, 'dist', relative) : join(override, relative);
    return existsSync(binary) ? binary : null;
  } catch {
    // No electron package (an install without dev dependencies): no tray from here.
    return null;
  }
}

export function trayReport(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): TrayReport {
  const display = displayOf(env, platform);
  const electron = electronBinary(env);
  // The tray bundle sits beside the command line's (dist/tray.cjs).
  const built = existsSync(join(__dirname, 'tray.cjs'));
  const why =
    display === null
      ? 'no display: DISPLAY and WAYLAND_DISPLAY are not set'
      : electron === null
        ? "Electron's binary is not installed (npm install downloads it)"
        : !built
          ? 'the tray app is not built (npm run build)'
          : null;
  return { available: why === null, why, display, electron };
}

/** Whether `name` is an executable file in a folder of PATH (found without a shell). */
function onPath(name: string, env: NodeJS.ProcessEnv): boolean {
  const folders = (env.PATH ?? '').split(delimiter).filter((folder) => folder !== '');
  return folders.some((folder) => {
    try {
      accessSync(join(folder, name), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** The program `watch --notify` shows notifications through (notifier.ts), and whether it is here. */
export function notificationProgram(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): NotificationsReport {
  switch (platform) {
    case 'linux': {
      const available = onPath('notify-send', env);
      return { program: 'notify-send', available, actions: available ? notifySendHasActions() : null };
    }
    case 'darwin':
      return { program: 'terminal-notifier (in node-notifier)', available: null, actions: null };
    case 'win32':
      return { program: 'SnoreToast (in node-notifier)', available: null, actions: null };
    default:
      return { program: 'node-notifier', available: null, actions: null };
  }
}

/** How long the test notification may take before it reads as failed. */
const SEND_TIMEOUT_MS = 15_000;

const TEST_PLAN: NotificationPlan = {
  claimIds: [],
  keys: [],
  title: 'Lookout: a test notification',
  body: 'lookout doctor --notify: notifications reach you.',
};

/** notify-send's last words on stderr (its warnings come first, the reason last). */
const lastLine = (text: string): string =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .at(-1) ?? '';

/**
 * notify-send run as Lookout's notifier runs it (the same argv), without --wait: it then exits
 * once the daemon took the notification, and its exit code says whether one did. (With --wait and
 * no daemon it never exits, so a notifier that waits cannot tell.)
 */
function notifySend(): Promise<{ sent: true } | { sent: false; error: string }> {
  return new Promise((resolve) => {
    execFile('notify-send', notifySendArgv(TEST_PLAN, false), { timeout: SEND_TIMEOUT_MS, encoding: 'utf8', shell: false }, (error, _stdout, stderr) => {
      if (error === null) resolve({ sent: true });
      else resolve({ sent: false, error: lastLine(stderr) || (error.killed ? `no answer in ${SEND_TIMEOUT_MS / 1000} s` : error.message) });
    });
  });
}

/** node-notifier (macOS, Windows), as `watch --notify` sends there; it reports the program's failure. */
async function nodeNotifier(): Promise<{ sent: true } | { sent: false; error: string }> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${SEND_TIMEOUT_MS / 1000} s`)), SEND_TIMEOUT_MS);
  });
  try {
    await Promise.race([new NodeNotifier().send(TEST_PLAN, () => undefined), late]);
    return { sent: true };
  } catch (error) {
    return { sent: false, error: lastLine(error instanceof Error ? error.message : String(error)) };
  } finally {
    clearTimeout(timer);
  }
}

/** One real notification through the program Lookout's notifier uses; whether it was shown, and why not. */
export async function sendTest(report: NotificationsReport, platform: NodeJS.Platform): Promise<NotificationsReport> {
  if (platform === 'linux' && report.available === false) return { ...report, sent: false, error: 'notify-send is not installed' };
  const outcome = platform === 'linux' ? await notifySend() : await nodeNotifier();
  return outcome.sent ? { ...report, sent: true } : { ...report, sent: false, error: outcome.error };
}
