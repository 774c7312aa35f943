// Notifications through Electron (the same policy as the command line: the runtime decides).
// A click opens the session and records a visit (R44); on macOS and Windows the notification also
// carries Mute 1 hour and Mark reviewed as buttons (Electron has none on Linux; docs/open.md).
import type { Notification as ElectronNotification, NotificationConstructorOptions } from 'electron';
import type { NotificationAction, NotificationPlan } from '../engine';
import { buttonsFor } from '../engine';
import type { Notifier } from '../main/notify/notifier';
import { readsMarkup, shownText } from '../main/notify/notification-text';

export type NotificationFactory = (options: NotificationConstructorOptions) => ElectronNotification;

export class ElectronNotifier implements Notifier {
  constructor(
    private readonly create: NotificationFactory,
    private readonly supported: () => boolean,
    private readonly platform: NodeJS.Platform = process.platform,
  ) {}

  send(plan: NotificationPlan, onAction: (action: NotificationAction) => void): Promise<void> {
    if (!this.supported()) return Promise.reject(new Error('this desktop shows no notifications'));
    // Allow and Deny first where the notification shows an approval's exact command (issue 23).
    const buttons = buttonsFor(plan);
    const actions = this.platform === 'darwin' || this.platform === 'win32' ? buttons.map((action) => ({ type: 'button' as const, text: action.label })) : [];
    // Electron hands the body to libnotify as it is on Linux, where the daemon reads it as markup.
    const shown = shownText(plan, readsMarkup(this.platform));
    const notification = this.create({ title: shown.title, body: shown.body, silent: false, ...(actions.length > 0 ? { actions } : {}) });
    notification.on('click', () => onAction('open'));
    notification.on('action', (_event, index) => {
      const picked = buttons[index];
      if (picked !== undefined) onAction(picked.id);
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
