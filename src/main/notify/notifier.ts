// Native notifications for the command line runtime (`lookout watch --notify`), via node-notifier.
// A failure to notify is reported once and never stops the runtime (issue 4).
import notifier from 'node-notifier';
import type { NotificationPlan } from '../../engine';

export interface Notifier {
  /** Shows the notification; `onClick` runs when the user clicks it, where the platform says so. */
  send(plan: NotificationPlan, onClick: (key: string) => void): Promise<void>;
}

export class NodeNotifier implements Notifier {
  send(plan: NotificationPlan, onClick: (key: string) => void): Promise<void> {
    // Only macOS (terminal-notifier) reports clicks back; elsewhere waiting would only hold a process.
    const wait = process.platform === 'darwin';
    return new Promise((resolve, reject) => {
      notifier.notify({ title: plan.title, message: plan.body === '' ? plan.title : plan.body, wait, timeout: 10 }, (error: Error | string | null, response?: string) => {
        // On success the callback's error is "" (stderr), not null: test truthiness.
        if (error) reject(error instanceof Error ? error : new Error(String(error)));
        else {
          const first = plan.keys[0];
          if (wait && first !== undefined && (response === 'activate' || response === 'clicked')) onClick(first);
          resolve();
        }
      });
    });
  }
}
