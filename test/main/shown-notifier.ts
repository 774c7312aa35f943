// A notifier that keeps what it was asked to show, and a wait on a condition, for the runtime's
// notification tests (quiet hours, the digest across a restart).
import { expect } from 'vitest';
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
export async function waitFor(check: () => boolean): Promise<void> {
  for (let waited = 0; waited < 20_000 && !check(); waited += 20) await new Promise((done) => setTimeout(done, 20));
  expect(check()).toBe(true);
}
