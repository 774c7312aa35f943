// Notifications held while it is quiet (quiet hours, or paused from the tray: issue 16), given as
// one digest when the quiet ends. Their claims are in the ledger already, so none comes back on
// its own; the digest tells them once. Kept in LOOKOUT_HOME (held-store.ts), so a restart within
// the quiet still tells them; in memory only when that folder cannot be written.
import type { NotificationPlan } from '../../engine';
import { DIGEST_LINES } from '../../engine/notify';
import type { HeldNotice, HeldStore } from '../store/held-store';
import { boundHeld } from '../store/held-store';

export class QuietHold {
  /** Held here only when the store could not keep them (or without a store). */
  private held: HeldNotice[] = [];
  private restored = false;

  constructor(private readonly store: HeldStore | null) {}

  /** Once, on start: what a run before held is read back (a bad file kept aside and said). */
  restore(now: number): void {
    if (this.restored) return;
    this.restored = true;
    this.store?.restore(now);
  }

  hold(plan: NotificationPlan, now: number): void {
    const notice: HeldNotice = { at: now, claimIds: plan.claimIds, keys: plan.keys, title: plan.title, body: plan.body };
    if (this.store?.add(notice, now) !== true) this.held = boundHeld([...this.held, notice], now);
  }

  /**
   * The digest of everything held, once (this run's and a run's before a restart); null when
   * nothing was. A session that no longer `exists` is not told; too old a notification neither.
   */
  release(now: number, exists: (key: string) => boolean): NotificationPlan | null {
    const stored = this.store?.pending === true ? (this.store.take(now) ?? []) : [];
    if (stored.length === 0 && this.held.length === 0) return null;
    const all = boundHeld(
      [...stored, ...this.held].sort((a, b) => a.at - b.at),
      now,
    );
    this.held = [];
    const plans = all.flatMap((notice) => {
      const there = notice.keys.flatMap((key, index) => (exists(key) ? [{ key, claimId: notice.claimIds[index] ?? '' }] : []));
      // A line as the notification read: one session's with its detail, several sessions' by their title.
      const line = notice.keys.length === 1 && notice.body !== '' ? `${notice.title}: ${notice.body}` : notice.title;
      return there.length === 0 ? [] : [{ line, keys: there.map((item) => item.key), claimIds: there.map((item) => item.claimId) }];
    });
    if (plans.length === 0) return null;
    // One claim per session, its newest: an action pairs keys and claim ids by position.
    const newest = new Map<string, string>();
    for (const plan of plans) for (const [index, key] of plan.keys.entries()) newest.set(key, plan.claimIds[index] ?? '');
    const keys = [...newest.keys()];
    const lines = plans.map((plan) => plan.line);
    const shown = lines.length <= DIGEST_LINES ? lines : [...lines.slice(0, DIGEST_LINES - 1), `and ${lines.length - DIGEST_LINES + 1} more`];
    return {
      claimIds: [...newest.values()],
      keys,
      title: `While quiet: ${keys.length} session${keys.length === 1 ? '' : 's'} wanted you`,
      body: shown.join('\n'),
    };
  }
}
