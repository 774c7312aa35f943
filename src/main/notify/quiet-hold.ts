// Notifications held while it is quiet (quiet hours, or paused from the tray: issue 16), given as
// one digest when the quiet ends. Their claims are in the ledger already, so none comes back on
// its own; the digest tells them once. Held in memory: a restart within the quiet loses the digest
// (each claim was recorded, so nothing is told twice either).
import type { NotificationPlan } from '../../engine';
import { DIGEST_LINES } from '../../engine/notify';

export class QuietHold {
  private held: NotificationPlan[] = [];

  hold(plan: NotificationPlan): void {
    this.held.push(plan);
  }

  /** The digest of everything held, once; null when nothing was. */
  release(): NotificationPlan | null {
    if (this.held.length === 0) return null;
    const plans = this.held;
    this.held = [];
    // One claim per session, its newest: an action pairs keys and claim ids by position.
    const newest = new Map<string, string>();
    for (const plan of plans) plan.keys.forEach((key, index) => newest.set(key, plan.claimIds[index] ?? ''));
    const keys = [...newest.keys()];
    const lines = plans.map((plan) => (plan.keys.length === 1 && plan.body !== '' ? `${plan.title}: ${plan.body}` : plan.title));
    const shown = lines.length <= DIGEST_LINES ? lines : [...lines.slice(0, DIGEST_LINES - 1), `and ${lines.length - DIGEST_LINES + 1} more`];
    return {
      claimIds: [...newest.values()],
      keys,
      title: `While quiet: ${keys.length} session${keys.length === 1 ? '' : 's'} wanted you`,
      body: shown.join('\n'),
    };
  }
}
