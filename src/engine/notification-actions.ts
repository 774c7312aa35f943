// What a notification offers besides its click (issue 15), and which of its sessions an action
// may still touch: only those whose claim is the one the notification told of. A session that
// moved on since (answered, finished anew, muted) is left alone, and the user is told.
import type { NotificationPlan } from './notify';
import type { Row } from './row';
import { STILL_WAITING } from './escalation';

export type NotificationAction = 'open' | 'mute-1h' | 'reviewed' | 'allow' | 'deny';

/** The buttons, in the order shown ("open" is also the notification's own click). */
export const NOTIFICATION_ACTIONS: readonly { id: NotificationAction; label: string }[] = [
  { id: 'open', label: 'Open' },
  { id: 'mute-1h', label: 'Mute 1 hour' },
  { id: 'reviewed', label: 'Mark reviewed' },
];

/** An approval's answers, offered first, only by a notification that shows its exact command (issue 23). */
export const ANSWER_ACTIONS: readonly { id: NotificationAction; label: string }[] = [
  { id: 'allow', label: 'Allow' },
  { id: 'deny', label: 'Deny' },
];

/** The buttons of this notification besides its click: Allow and Deny where it carries an approval. */
export function buttonsFor(plan: NotificationPlan): readonly { id: NotificationAction; label: string }[] {
  const usual = NOTIFICATION_ACTIONS.filter((action) => action.id !== 'open');
  // A question's options are a phone's buttons: a desktop notification answers approvals only.
  return plan.answer === undefined || plan.answer.options !== undefined ? usual : [...ANSWER_ACTIONS, ...usual];
}

export function actionLabel(action: NotificationAction): string {
  return [...NOTIFICATION_ACTIONS, ...ANSWER_ACTIONS].find((item) => item.id === action)?.label ?? action;
}

/** A row's claim under the id the ledger gives it (claims.ts builds the same from the claim itself). */
export function rowClaimId(row: Row): string | null {
  if (row.claim === null) return null;
  const since = Date.parse(row.claim.since);
  return Number.isFinite(since) ? `${row.key}|${row.claim.kind}${row.claim.ambiguous ? '~' : ''}|${since}` : null;
}

/** The notification's sessions split by whether each still holds the claim it was notified of. */
export function stillNotified(plan: NotificationPlan, rows: readonly Row[]): { current: string[]; changed: string[] } {
  const byKey = new Map(rows.map((row) => [row.key, row]));
  const current: string[] = [];
  const changed: string[] = [];
  plan.keys.forEach((key, index) => {
    const row = byKey.get(key);
    // An escalation (R61) is notified under its claim's id with a suffix: the same claim.
    const notified = (plan.claimIds[index] ?? '').replace(STILL_WAITING, '');
    (row !== undefined && rowClaimId(row) === notified ? current : changed).push(key);
  });
  return { current, changed };
}
