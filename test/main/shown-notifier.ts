// A notifier that keeps what it was asked to show, for the runtime's notification tests (quiet
// hours, the digest across a restart).
import type { NotificationPlan } from '../../src/engine';
import type { Notifier } from '../../src/main/notify/notifier';

export class Shown implements Notifier {
  readonly plans: NotificationPlan[] = [];
  send(plan: NotificationPlan): Promise<void> {
    this.plans.push(plan);
    return Promise.resolve();
  }
}

/** Waits (20 s at most) until `check` holds, then asserts it. */
