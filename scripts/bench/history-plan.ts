// The bench's synthetic history: 2,000 sessions, 1.1 GB with six files of 60 MB (a quick run: 40).
import type { HistoryPlan } from './synthetic-history';

const MB = 1024 * 1024;

export function historyPlan(quick: boolean): HistoryPlan {
  return quick ? { sessions: 40, totalBytes: 24 * MB, giantFiles: 2, giantBytes: 6 * MB } : { sessions: 2000, totalBytes: 1100 * MB, giantFiles: 6, giantBytes: 60 * MB };
}
