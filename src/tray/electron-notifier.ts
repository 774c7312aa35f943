// Notifications through Electron (the same policy as the command line: the runtime decides).
// A click opens the session and records a visit (R44).
import type { Notification as ElectronNotification, NotificationConstructorOptions } from 'electron';
import type { NotificationPlan } from '../engine';
import type { Notifier } from '../main/notify/notifier';

export type NotificationFactory = (options: NotificationConstructorOptions) => ElectronNotification;

export class ElectronNotifier implements Notifier {
  constructor(
    private readonly create: NotificationFactory,
    private readonly supported: () => boolean,
  ) {}

  send(plan: NotificationPlan, onClick: (key: string) => void): Promise<void> {
    if (!this.supported()) return Promise.reject(new Error('this desktop shows no notifications'));
    const notification = this.create({ title: plan.title, body: plan.body, silent: false });
    const first = plan.keys[0];
    notification.on('click', () => {
      if (first !== undefined) onClick(first);
    });
    return new Promise((resolve, reject) => {
      notification.on('show', () => resolve());
      notification.on('failed', (_event, error) => reject(new Error(error)));
      notification.show();
      // Some desktops never report "show": do not hold the runtime on it.
      setTimeout(resolve, 2000);
    });
  }
}
