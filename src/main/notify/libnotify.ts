// Notifications with actions on Linux desktops (issue 15): libnotify's `notify-send` (0.7.10 and
// later) shows Open, Mute 1 hour and Mark reviewed, waits, and prints the action chosen; a click
// on the notification itself is its "default" action, Open. Argv only; the text after "--".
import type { ChildProcess } from 'node:child_process';
import type { NotificationAction, NotificationPlan } from '../../engine';
import { ANSWER_ACTIONS, NOTIFICATION_ACTIONS } from '../../engine';
import type { Notifier } from './notifier';
import { shownText } from './notification-text';

/** Notifications waiting on the user at once; past this, new ones are shown without actions. */
const MAX_WAITING = 8;
const SHOWN_AFTER_MS = 1000;

/** Whether this notify-send takes --action (libnotify 0.7.10, 2021): asked once. */
export function notifySendHasActions(): boolean {
  try {
    const help = process
      .getBuiltinModule('node:child_process')
      .execFileSync('notify-send', ['--help'], { encoding: 'utf8', timeout: 2000, stdio: ['ignore', 'pipe', 'ignore'] });
    return help.includes('--action');
  } catch {
    return false;
  }
}

/** The action notify-send printed, if it is one of ours. */
/** Every action notify-send lists: Allow and Deny first where the notification shows an approval's exact command. */
function listed(plan: NotificationPlan): readonly { id: NotificationAction; label: string }[] {
  return plan.answer === undefined || plan.answer.options !== undefined ? NOTIFICATION_ACTIONS : [...ANSWER_ACTIONS, ...NOTIFICATION_ACTIONS];
}

export function chosenAction(stdout: string, plan: NotificationPlan): NotificationAction | null {
  const name = stdout.trim().split('\n').at(-1) ?? '';
  if (name === 'default') return 'open';
  return listed(plan).find((action) => action.id === name)?.id ?? null;
}

export function notifySendArgv(plan: NotificationPlan, withActions: boolean): string[] {
  const actions = withActions ? ['--wait', '--action=default=Open', ...listed(plan).map((action) => `--action=${action.id}=${action.label}`)] : [];
  // notify-send speaks to a freedesktop daemon, which reads the body as markup.
  const shown = shownText({ title: plan.title, body: plan.body === '' ? plan.title : plan.body }, true);
  return ['--app-name=Lookout', ...actions, '--', shown.title, shown.body];
}

/** notify-send's own words for "nothing was shown" (no session bus, no daemon), as one line; null for its notes. */
export function failureLine(stderr: string): string | null {
  const line = stderr
    .split('\n')
    .map((text) => text.trim())
    .find((text) => /failed to connect|cannot autolaunch|could not connect|^error/i.test(text));
  return line === undefined ? null : `notify-send: ${line.replace(/^\(notify-send:\d+\): /, '').slice(0, 200)}`;
}

export class LibnotifyNotifier implements Notifier {
  private readonly waiting = new Set<ChildProcess>();

  send(plan: NotificationPlan, onAction: (action: NotificationAction) => void): Promise<void> {
    const withActions = this.waiting.size < MAX_WAITING;
    let child: ChildProcess;
    try {
      child = process
        .getBuiltinModule('node:child_process')
        .spawn('notify-send', notifySendArgv(plan, withActions), { stdio: ['ignore', 'pipe', 'pipe'], shell: false });
    } catch (error) {
      // Some failures (E2BIG: an argument or environment over the kernel's limit) throw at once, not as an event.
      return Promise.reject(new Error(`could not run notify-send: ${error instanceof Error ? error.message : String(error)}`));
    }
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk.slice(0, 256)));
    if (withActions) this.waiting.add(child);
    return new Promise((resolve, reject) => {
      // notify-send says nothing once shown: a failure ends it at once, or (--wait with no session
      // bus) says so on stderr and waits for good; one still silent after a second has shown it.
      const shown = setTimeout(resolve, SHOWN_AFTER_MS);
      shown.unref();
      child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk.slice(0, 512);
        const failed = failureLine(stderr);
        if (failed === null) return;
        clearTimeout(shown);
        this.waiting.delete(child);
        child.kill();
        // Once taken as shown, the promise is settled: only the hanging process is ended.
        reject(new Error(failed));
      });
      child.once('error', (error) => {
        this.waiting.delete(child);
        clearTimeout(shown);
        reject(new Error(`could not run notify-send: ${error.message}`));
      });
      child.once('close', (code) => {
        this.waiting.delete(child);
        clearTimeout(shown);
        if (code !== 0) {
          reject(new Error(stderr.split('\n')[0] || `notify-send exited ${code}`));
          return;
        }
        resolve();
        const action = chosenAction(stdout, plan);
        if (action !== null) onAction(action);
      });
    });
  }

  /** Closes what still waits (the runtime is stopping). */
  dispose(): void {
    for (const child of this.waiting) child.kill();
    this.waiting.clear();
  }
}
