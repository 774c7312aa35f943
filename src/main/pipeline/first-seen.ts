// A session whose files hold times after now (another machine's clock ahead of ours, a synced
// folder) is marked with when Lookout first read it so: the engine holds its times there instead
// of pulling them up to every beat's now (issue 24). The mark stays while the evidence does.
import type { SessionEvidence } from '../../engine';
import { anyAfter, plainEqual, sessionKey } from '../../engine';

export class FirstSeen {
  private held = new Map<string, { raw: SessionEvidence; marked: SessionEvidence }>();

  mark(items: readonly SessionEvidence[], now: number): SessionEvidence[] {
    const next = new Map<string, { raw: SessionEvidence; marked: SessionEvidence }>();
    const out = items.map((item) => {
      if (!anyAfter(item, now)) return item;
      const key = sessionKey(item.provider, item.sessionId);
      const before = this.held.get(key);
      const marked = before !== undefined && (before.raw === item || plainEqual(before.raw, item)) ? before.marked : { ...item, seenAt: now };
      next.set(key, { raw: item, marked });
      return marked;
    });
    this.held = next;
    return out;
  }
}
