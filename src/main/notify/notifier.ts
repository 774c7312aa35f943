// Native notifications for the command line runtime (`lookout watch --notify`): libnotify's
// notify-send with actions on Linux (libnotify.ts), node-notifier elsewhere (terminal-notifier on
// macOS, which reports clicks and actions back). A failure to notify is reported once and never
// stops the runtime (issue 4).
import notifier from 'node-notifier';
import type { NotificationAction, NotificationPlan } from '../../engine';
import { buttonsFor } from '../../engine';
import { LibnotifyNotifier, notifySendHasActions } from './libnotify';
import { readsMarkup, shownText } from './notification-text';

export interface Notifier {
  /**
   * Shows the notification; `onAction` runs when the user clicks it ("open") or picks one of its
   * actions, where the platform reports them back.
   */
  send(plan: NotificationPlan, onAction: (action: NotificationAction) => void): Promise<void>;
  /** Lets go of notifications still waiting for the user (the runtime is stopping). */
  dispose?(): void;
  /** Whether it shows anything now; false: nothing is told, nor recorded as told (a phone not sending from this face). */
  active?(): boolean;
}

export class NodeNotifier implements Notifier {
  send(plan: NotificationPlan, onAction: (action: NotificationAction) => void): Promise<void> {
    // Only macOS (terminal-notifier) reports clicks and actions back; elsewhere waiting would only hold a process.
    const wait = process.platform === 'darwin';
    const buttons = buttonsFor(plan);
    // On Linux node-notifier runs notify-send, whose daemon reads the body as markup.
    const shown = shownText({ title: plan.title, body: plan.body === '' ? plan.title : plan.body }, readsMarkup(process.platform));
    const options = { title: shown.title, message: shown.body, wait, timeout: 10, ...(wait ? { actions: buttons.map((action) => action.label) } : {}) };
    return new Promise((resolve, reject) => {
      notifier.notify(options, (error, response, metadata) => {
        // On success the callback's error is "" (stderr), not null: test truthiness.
        if (error) {
          reject(error instanceof Error ? error : new Error(String(error)));
          return;
        }
        resolve();
        if (!wait) return;
        const picked = metadata?.activationType === 'actionClicked' ? buttons.find((action) => action.label === metadata.activationValue)?.id : undefined;
        if (picked !== undefined) onAction(picked);
        else if (response === 'activate' || response === 'clicked' || metadata?.activationType === 'contentsClicked') onAction('open');
      });
    });
  }
}

/** `watch --notify`'s notifier: notify-send with actions where it has them, else node-notifier. */
export function commandLineNotifier(platform: NodeJS.Platform = process.platform): Notifier {
  return platform === 'linux' && notifySendHasActions() ? new LibnotifyNotifier() : new NodeNotifier();
}
