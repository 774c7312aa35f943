// The user's facts (docs/runtime.md): the only things Lookout persists. Times are epoch ms.
import type { QuietHours } from './quiet';
import type { ReviewState } from './vocabulary';
import type { Timings } from './timings';
import { DEFAULT_TIMINGS } from './timings';

interface ReviewFact {
  state: ReviewState;
  at: number;
  /** The session's lastActivityAt when it was reviewed (R23). */
  lastActivityAt: number | null;
}

export interface RuleApplication {
  key: string;
  ruleId: string;
  version: number;
  /** The review state it set, or null (a rule that muted). */
  set: ReviewState | null;
  /** It muted the session (recorded as a mute the user may lift). */
  mute?: boolean;
  at: number;
  lastActivityAt: number | null;
}

export interface MuteFact {
  at: number;
  until: number | null;
}

export interface VisitFact {
  at: number;
  /** The working-tree fingerprint seen at the visit (ready-for-review compares against it). */
  fingerprint: string | null;
}

export interface AttentionCall {
  at: number;
  message: string | null;
}

export interface UserFacts {
  reviews: Record<string, ReviewFact>;
  mutes: Record<string, MuteFact>;
  visits: Record<string, VisitFact>;
  attentionCalls: Record<string, AttentionCall>;
  ruleLedger: RuleApplication[];
  /** Claim ids already notified (R41). */
  notified: string[];
  /** Notifications paused from the tray until then (issue 16); null when not paused. */
  pausedUntil: number | null;
}

export function emptyFacts(): UserFacts {
  return { reviews: {}, mutes: {}, visits: {}, attentionCalls: {}, ruleLedger: [], notified: [], pausedUntil: null };
}

/** An automation rule (R22). Only time conditions exist so far; rules read only evidence. */
/** How much a session notifies (a rule's `notify`). */
export type NotifyLevel = 'never' | 'needs-you' | 'everything';

/**
 * R22, and rules per project (issue 16). `when` narrows the sessions (every condition given must
 * hold); then the rule sets a review state and/or mutes, once per session and version (recorded),
 * and/or sets how much the session notifies (for as long as the rule is there).
 */
export interface AutomationRule {
  id: string;
  version: number;
  when: { inactiveFor?: string; folder?: string; provider?: string; host?: string; finished?: boolean };
  set?: ReviewState;
  mute?: boolean;
  notify?: NotifyLevel;
}

const SHIPPED_RULES: readonly AutomationRule[] = [{ id: 'outdated-after-7d', version: 1, when: { inactiveFor: '7d' }, set: 'outdated' }];

export interface NotificationSwitches {
  enabled: boolean;
  needsYou: boolean;
  failed: boolean;
  finished: boolean;
  /** A usage limit stopped work, and its reset (R82). */
  limits: boolean;
}

export interface Settings {
  timings: Timings;
  notifications: NotificationSwitches;
  /** argv template for "open" (R50); null means the built-in choice. */
  openCommand: string[] | null;
  rules: AutomationRule[];
  /** Quiet hours: nothing sounds or pops within them (issue 16); null for none. */
  quietHours: QuietHours | null;
}

export function defaultSettings(): Settings {
  return {
    timings: { ...DEFAULT_TIMINGS },
    notifications: { enabled: true, needsYou: true, failed: true, finished: true, limits: true },
    openCommand: null,
    rules: SHIPPED_RULES.map((rule) => ({ ...rule, when: { ...rule.when } })),
    quietHours: null,
  };
}
