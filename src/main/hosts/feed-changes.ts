// The feed's protocol 2 (issue 27): after a full snapshot, a line carries only the rows that
// changed and the keys removed, numbered; the other side applies them to what it holds and asks
// for a full snapshot again when a number is missed or a line does not validate. Both sides here,
// pure: the feed's writer keeps what it sent, the link applies what it got.
import type { Row, Snapshot } from '../../engine';

/**
 * The protocols this Lookout speaks: 1, a full snapshot on every change; 2, changes after one; 3,
 * as 2 with usage limits (issue 46: limited rows and bands, the snapshot's `limits`).
 */
export const FEED_PROTOCOLS = [1, 2, 3] as const;
export type FeedProtocol = (typeof FEED_PROTOCOLS)[number];

/** The protocol both sides speak: the newest the asking side names that this one knows. */
export function agreedProtocol(offered: readonly number[] | undefined): FeedProtocol {
  if (offered?.includes(3) === true) return 3;
  return offered?.includes(2) === true ? 2 : 1;
}

/** A line of protocol 2: a snapshot's head, its changed rows as `sessions`, and what is gone. */
export type ChangeLine = Snapshot & { seq: number; delta: true; removed: string[] };

/** The feed's side: what was sent last, row by row (its JSON), and the line number. */
export class ChangeWriter {
  private sent = new Map<string, string>();
  private seq = 0;
  private needsFull = true;

  /** The next line must be a full snapshot (a start, or the other side asked again). */
  resync(): void {
    this.needsFull = true;
  }

  /** The line for this snapshot: a full one when due, else its changes (possibly none). */
  line<S extends Omit<Snapshot, 'limits'>>(snapshot: S): (S & { seq: number }) | (S & { seq: number; delta: true; removed: string[] }) {
    this.seq += 1;
    const next = new Map<string, string>();
    const changed: Row[] = [];
    for (const row of snapshot.sessions) {
      const text = JSON.stringify(row);
      next.set(row.key, text);
      if (this.sent.get(row.key) !== text) changed.push(row);
    }
    const removed = this.needsFull ? [] : [...this.sent.keys()].filter((key) => !next.has(key));
    this.sent = next;
    if (this.needsFull) {
      this.needsFull = false;
      return { ...snapshot, seq: this.seq };
    }
    return { ...snapshot, sessions: changed, removed, seq: this.seq, delta: true };
  }
}

/**
 * The link's side: the rows it holds, in the order the feed last gave them (new rows after),
 * with a change line applied. The engine sorts a host's rows into triage order itself.
 */
export function applyChanges(base: Snapshot, line: ChangeLine): Snapshot {
  const gone = new Set(line.removed);
  const changed = new Map(line.sessions.map((row) => [row.key, row]));
  const sessions: Row[] = [];
  for (const row of base.sessions) {
    if (gone.has(row.key)) continue;
    const update = changed.get(row.key);
    sessions.push(update ?? row);
    changed.delete(row.key);
  }
  sessions.push(...changed.values());
  return { schemaVersion: line.schemaVersion, now: line.now, attention: line.attention, sessions, limits: line.limits };
}

/** What a line says of its place in the sequence, read off the parsed object (protocol 2 only). */
export function lineKind(raw: unknown): { kind: 'full'; seq: number | null } | { kind: 'change'; seq: number; removed: string[] } | { kind: 'bad' } {
  const line = raw as { seq?: unknown; delta?: unknown; removed?: unknown };
  const seq = typeof line.seq === 'number' && Number.isSafeInteger(line.seq) ? line.seq : null;
  if (line.delta !== true) return { kind: 'full', seq };
  const removed = Array.isArray(line.removed) && line.removed.every((key) => typeof key === 'string') ? (line.removed as string[]) : null;
  return seq === null || removed === null ? { kind: 'bad' } : { kind: 'change', seq, removed };
}
