// A notifier that keeps each notification with the callback its actions go to, for the runtime's
// tests that press a notification's buttons (Allow, Deny, Open, Mute).
import type { NotificationAction, NotificationPlan } from '../../src/engine';
import type { Notifier } from '../../src/main/notify/notifier';

export class Catcher implements Notifier {
  readonly sent: { plan: NotificationPlan; act: (action: NotificationAction) => void }[] = [];
  send(plan: NotificationPlan, act: (action: NotificationAction) => void): Promise<void> {
    this.sent.push({ plan, act });
    return Promise.resolve();
  }
}
