// Carries out a notification's action (issue 15): Open, Mute 1 hour, Mark reviewed. Mute and
// review touch only the sessions whose claim is still the one notified; the others are named in
// one problem line. A session on another machine is asked of its own Lookout, like the popover's.
import type { CommandResult, FeedCommand } from '../../engine/contract';
import type { NotificationAction, NotificationPlan, Row } from '../../engine';
import { actionLabel, stillNotified } from '../../engine';
import type { FactWriter } from '../facts/fact-writer';

const HOUR_MS = 3_600_000;

export interface ActionPorts {
  /** The rows as they are now (this machine's and every host's). */
  rows(): readonly Row[];
  facts: FactWriter;
  /** Sends a fact to the machine that owns the key; false for a key of this machine. */
  remoteAsk(command: FeedCommand): Promise<boolean>;
  /** Opens one session, or shows several (a digest's click). */
  open(keys: readonly string[]): void;
  onProblem(line: string): void;
  evaluateNow(): void;
  now(): number;
  /** Answers a prompt of this machine's (issue 23): the runtime's answer, with its checks. */
  answer(attempt: { request: string; digest: string; decision: { behavior: 'allow' } | { behavior: 'deny'; message: null } }): Promise<CommandResult>;
}

export async function applyNotificationAction(plan: NotificationPlan, action: NotificationAction, ports: ActionPorts): Promise<void> {
  const rows = ports.rows();
  const { current, changed } = stillNotified(plan, rows);
  if (action === 'open') {
    // Looking is harmless whatever changed: every session it named, still there, is shown.
    const there = plan.keys.filter((key) => rows.some((row) => row.key === key));
    if (there.length > 0) ports.open(there);
    return;
  }
  if (action === 'allow' || action === 'deny') {
    await answerFromNotification(plan, action, ports);
    return;
  }
  if (changed.length > 0)
    ports.onProblem(
      `lookout: "${actionLabel(action)}" was not applied to ${changed.join(', ')}: ${changed.length === 1 ? 'it has' : 'they have'} changed since the notification`,
    );
  const now = ports.now();
  for (const key of current) {
    const command = factCommand(action, key, now);
    try {
      if (await ports.remoteAsk(command)) continue;
    } catch (error) {
      ports.onProblem(`lookout: "${actionLabel(action)}" for ${key}: ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    if (command.type === 'mute') ports.facts.mute(key, now + HOUR_MS, now);
    else ports.facts.review(key, 'reviewed', rows.find((row) => row.key === key)?.lastActivityAt ?? null, now);
  }
  ports.evaluateNow();
}

/**
 * Allow or Deny on a notification that showed the exact command: bound to the request it showed
 * (R71); the runtime refuses one that changed or went, and the reason is said. A click, not a key:
 * the notification is the card that showed it (R72).
 */
async function answerFromNotification(plan: NotificationPlan, action: 'allow' | 'deny', ports: ActionPorts): Promise<void> {
  const target = plan.answer;
  // A question is never answered Allow or Deny (its options are a phone's buttons).
  if (target === undefined || target.options !== undefined) return;
  const decision = action === 'allow' ? { behavior: 'allow' as const } : { behavior: 'deny' as const, message: null };
  let result: CommandResult;
  try {
    const remote = await ports.remoteAsk({ type: 'answer', key: target.key, request: target.request, digest: target.digest, decision, via: 'click' });
    result = remote ? { ok: true } : await ports.answer({ request: target.request, digest: target.digest, decision });
  } catch (error) {
    result = { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  if (!result.ok) ports.onProblem(`lookout: "${actionLabel(action)}" for ${target.key} was not sent: ${result.error ?? 'refused'}`);
  ports.evaluateNow();
}

function factCommand(action: Exclude<NotificationAction, 'open' | 'allow' | 'deny'>, key: string, now: number): FeedCommand & { type: 'mute' | 'review' } {
  switch (action) {
    case 'mute-1h':
      return { type: 'mute', key, until: new Date(now + HOUR_MS).toISOString() };
    case 'reviewed':
      return { type: 'review', key, state: 'reviewed' };
  }
}
