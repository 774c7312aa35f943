// The one writer of user facts: review, mute, unmute, visit, attention, "mute all", and the
// ledgers the runtime keeps (rules applied, claims notified). The command line, the popover host
// and the tray menu all write through it; none of them builds a store record.
import type { ReviewState, RuleApplication, UserFacts } from '../../engine';
import { iso, isoOrNull } from '../../engine';
import { readWorkingTree } from '../git/working-tree';
import type { FactStore } from '../store/facts-store';
import { toFacts } from '../store/facts-store';
import type { StoreFile } from '../store/schema';
import type { AnswerRecord } from '../answer/broker';

/** The audit keeps this many answers, each with this much of what was shown. */
const ANSWERS_KEPT = 500;
const SHOWN_KEPT = 4000;

export class FactWriter {
  private current: UserFacts;

  constructor(
    private readonly store: FactStore,
    facts: UserFacts,
    private readonly onProblem: (line: string) => void,
  ) {
    this.current = facts;
  }

  /** The facts as last read or written: what the next evaluation uses. */
  get facts(): UserFacts {
    return this.current;
  }

  /** Takes facts read elsewhere (another process wrote the store). */
  adopt(facts: UserFacts): void {
    this.current = facts;
  }

  review(key: string, state: ReviewState, lastActivityAt: string | null, now: number): void {
    this.write(now, (file) => {
      file.reviews[key] = { state, at: iso(now), lastActivityAt };
    });
  }

  /** Mutes until `until`, or until unmuted (null). */
  mute(key: string, until: number | null, now: number): void {
    this.muteAll([key], until, now);
  }

  /** One write for many rows (the tray's "Mute all for 1 h"). */
  muteAll(keys: readonly string[], until: number | null, now: number): void {
    if (keys.length === 0) return;
    this.write(now, (file) => {
      for (const key of keys) file.mutes[key] = { at: iso(now), until: isoOrNull(until) };
    });
  }

  /** Pauses every notification until `until` (the tray's Pause), or resumes them (null). */
  pause(until: number | null, now: number): void {
    this.write(now, (file) => {
      file.pausedUntil = isoOrNull(until);
    });
  }

  unmute(key: string, now: number): void {
    this.write(now, (file) => {
      delete file.mutes[key];
    });
  }

  /** R30: a visit, with the working tree it saw (ready-for-review compares against it). */
  async visit(key: string, cwd: string | null, now: number): Promise<void> {
    const tree = await readWorkingTree(cwd, now);
    this.write(now, (file) => {
      file.visits[key] = { at: iso(now), fingerprint: tree.kind === 'read' ? tree.fingerprint : null };
    });
  }

  /** An expiring "needs you" raised by the user (`lookout attention`). */
  attention(key: string, message: string | null, now: number): void {
    this.write(now, (file) => {
      file.attentionCalls[key] = { at: iso(now), message };
    });
  }

  /** R22: the rules the engine applied, so each applies once. A failure is reported, not thrown. */
  recordRules(applications: readonly RuleApplication[], now: number): void {
    if (applications.length === 0) return;
    this.tryWrite(now, (file) => {
      for (const entry of applications) {
        file.ruleLedger.push({
          key: entry.key,
          ruleId: entry.ruleId,
          version: entry.version,
          set: entry.set,
          ...(entry.mute === true ? { mute: true } : {}),
          at: iso(entry.at),
          lastActivityAt: isoOrNull(entry.lastActivityAt),
        });
        // A rule's mute is a mute like the user's own: lifted by unmuting, not set again (the ledger).
        if (entry.mute === true) file.mutes[entry.key] ??= { at: iso(entry.at), until: null };
      }
    });
  }

  /** R41: claims notified, written before the notification is sent. */
  recordNotified(claimIds: readonly string[], now: number): void {
    this.tryWrite(now, (file) => {
      for (const id of claimIds) file.notified.push({ id, at: iso(now) });
    });
  }

  /** R75: an answer given from Lookout, or a prompt it let go; the newest ANSWERS_KEPT stay. */
  recordAnswer(record: AnswerRecord): void {
    this.tryWrite(record.at, (file) => {
      const answers = file.answers ?? [];
      // What is kept of the text, and how much of it is not: never a silent cut (issue 47).
      answers.push({
        ...record,
        requestAt: iso(record.requestAt),
        at: iso(record.at),
        shown: record.shown.slice(0, SHOWN_KEPT),
        hidden: record.hidden + Math.max(0, record.shown.length - SHOWN_KEPT),
      });
      file.answers = answers.slice(-ANSWERS_KEPT);
    });
  }

  /** Said once while the store stays unwritable (a read-only home), and again after it recovered. */
  private failing = false;

  private tryWrite(now: number, change: (file: StoreFile) => void): void {
    try {
      this.write(now, change);
      this.failing = false;
    } catch (error) {
      if (this.failing) return;
      this.failing = true;
      this.onProblem(`lookout: could not save to the store: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Read, change and write under the store's lock; throws when the store cannot be written. */
  private write(now: number, change: (file: StoreFile) => void): void {
    const result = this.store.update(now, change);
    for (const line of result.problems) this.onProblem(line);
    this.current = toFacts(result.file);
  }
}
