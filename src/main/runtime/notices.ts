// The runtime's notifications, once the engine has planned them (R40–R44): each claim told at
// most once (the ledger, and a set for a store that cannot write), held while quiet and told as
// one digest after (issue 16; kept in LOOKOUT_HOME across a restart), failures said once, and a
// notification's actions carried out (issue 15).
import type { NotificationAction, NotificationPlan, QuietHours, Row } from '../../engine';
import { isQuiet } from '../../engine';
import { providerIds } from '../../providers';
import type { FactWriter } from '../facts/fact-writer';
import type { ActionPorts } from '../notify/notification-action';
import { applyNotificationAction } from '../notify/notification-action';
import type { Notifier } from '../notify/notifier';
import { QuietHold } from '../notify/quiet-hold';
import { HeldStore } from '../store/held-store';

export interface NoticePorts {
  notifier: Notifier;
  facts: FactWriter;
  /** LOOKOUT_HOME: what is held while quiet is kept there until told. */
  home: string;
  quietHours(): QuietHours | null;
  onProblem(line: string): void;
  /** What a notification's action needs (the rows as they are, opening, asking other machines). */
  actions(): ActionPorts;
}

/**
 * Whether a held notification's session is still one to tell of: a row now, or a row of another
 * machine whose Lookout shows none yet (not connected since a restart: it is not known gone).
 */
function stillThere(key: string, rows: readonly Row[]): boolean {
  if (rows.some((row) => row.key === key)) return true;
  const head = key.slice(0, Math.max(0, key.indexOf(':')));
  return !providerIds().includes(head) && !rows.some((row) => row.host === head);
}

/** Claim ids this process remembers telling (the ledger keeps 5,000 of this machine's and 1,000 a host's). */
const TOLD_HERE_MAX = 20_000;

export class Notices {
  private readonly toldHere = new Set<string>();
  private failed = false;
  private readonly held: QuietHold;

  constructor(private readonly ports: NoticePorts) {
    this.held = new QuietHold(new HeldStore(ports.home, ports.onProblem));
  }

  tell(plan: NotificationPlan, now: number): void {
    // Told nowhere is not told: the claims stay to tell once something shows them.
    if (this.ports.notifier.active?.() === false) return;
    // If the store could not record them, this set still keeps each claim to one notification.
    if (plan.claimIds.every((id) => this.toldHere.has(id))) return;
    for (const id of plan.claimIds) this.toldHere.add(id);
    // Bounded like the ledger, oldest first: a host that changes its claims for days fills no memory.
    for (const id of this.toldHere) {
      if (this.toldHere.size <= TOLD_HERE_MAX) break;
      this.toldHere.delete(id);
    }
    // The ledger is written first: each claim notifies at most once, across restarts too (R41).
    this.ports.facts.recordNotified(plan.claimIds, now);
    // Quiet: nothing sounds or pops; the badge still counts, and the digest comes at the end.
    if (this.quiet(now)) this.held.hold(plan, now);
    else this.send(plan);
  }

  /** Quiet hours or a pause just ended: what was held is told once, as one digest. */
  releaseQuiet(now: number): void {
    // The first call comes with the first snapshot: what a run before held is read back then.
    this.held.restore(now);
    if (this.quiet(now)) return;
    const rows = this.ports.actions().rows();
    const digest = this.held.release(now, (key) => stillThere(key, rows));
    if (digest !== null) this.send(digest);
  }

  dispose(): void {
    this.ports.notifier.dispose?.();
  }

  private quiet(now: number): boolean {
    return isQuiet(now, this.ports.quietHours(), this.ports.facts.facts.pausedUntil);
  }

  private send(plan: NotificationPlan): void {
    const act = (action: NotificationAction): void => {
      // A store that cannot be written is said, never a crash of the runtime.
      applyNotificationAction(plan, action, this.ports.actions()).catch((error: unknown) =>
        this.ports.onProblem(`lookout: could not carry out that notification's action: ${error instanceof Error ? error.message : String(error)}`),
      );
    };
    let sending: Promise<void>;
    try {
      sending = this.ports.notifier.send(plan, act);
    } catch (error) {
      // A notifier that throws instead of rejecting is one failure like any other, never the runtime's end.
      sending = Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    sending.catch((error: unknown) => {
      if (this.failed) return;
      this.failed = true;
      this.ports.onProblem(
        `lookout: notifications are unavailable (${error instanceof Error ? error.message.split('\n')[0] : String(error)}); Lookout goes on without them`,
      );
    });
  }
}
