// The bench's synthetic history: 2,000 sessions, 1.1 GB with six files of 60 MB (a quick run: 40).
import type { HistoryPlan } from './synthetic-history';

const MB = 1024 * 1024;

/** A quick run's sessions. */
export const QUICK_SESSIONS = 40;

export function historyPlan(quick: boolean): HistoryPlan {
  return quick ? { sessions: QUICK_SESSIONS, totalBytes: 24 * MB, giantFiles: 2, giantBytes: 6 * MB } : scaledPlan(2000);
}

/** The same shape at another count (issue 27's slope): sizes kept, counts in proportion. */
export function scaledPlan(sessions: number): HistoryPlan {
  return { sessions, totalBytes: Math.round((1100 * MB * sessions) / 2000), giantFiles: Math.max(1, Math.round((6 * sessions) / 2000)), giantBytes: 60 * MB };
}
