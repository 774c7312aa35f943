// The user's facts (status-model.md §10): the only things Lookout persists. Times are epoch ms.
import type { QuietHours } from './quiet';
import type { ReviewState } from './vocabulary';
import type { Timings } from './timings';
import { DEFAULT_TIMINGS } from './timings';

export interface ReviewFact {
  state: ReviewState;
  at: number;
  /** The session's lastActivityAt when it was reviewed (R23). */
  lastActivityAt: number | null;
}

export interface RuleApplication {
  key: string;
  ruleId: string;
  version: number;
  set: ReviewState;
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
export interface AutomationRule {
  id: string;
  version: number;
  when: { inactiveFor: string };
  set: ReviewState;
}

export const SHIPPED_RULES: readonly AutomationRule[] = [
  { id: 'outdated-after-7d', version: 1, when: { inactiveFor: '7d' }, set: 'outdated' },
];

export interface NotificationSwitches {
  enabled: boolean;
  needsYou: boolean;
  failed: boolean;
  finished: boolean;
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
    notifications: { enabled: true, needsYou: true, failed: true, finished: true },
    openCommand: null,
    rules: SHIPPED_RULES.map((rule) => ({ ...rule, when: { ...rule.when } })),
    quietHours: null,
  };
}
