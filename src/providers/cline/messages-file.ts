// Each session's `<id>.messages.json`, read whole when it changed (the CLI rewrites it whole):
// checked first (a regular file, under a size cap, never a blocking open), parsed, folded. What a
// file said is kept in the session index (issue 14) while it stays the same file, same size and
// time: a cold status then parses only the files that changed since.
import type { Stats } from 'node:fs';
import type { Problems } from '../problems';
import { obj } from '../jsonl/parse-record';
import { hasShape } from '../plain-shape';
import { signalFrom, storableSignal, turnFrom } from '../reading-shape';
import type { SessionIndexPort } from '../session-index';
import { NO_INDEX } from '../session-index';
import type { Settled } from '../system/whole-file';
import { WholeFiles } from '../system/whole-file';
import type { MessagesFacts } from './messages';
import { NO_MESSAGES, foldMessages } from './messages';

const PROVIDER = 'cline';
const KEPT = { count: 'number', savedAt: 'number?', lastAt: 'number?', answeredAt: 'number?' } as const;
const TITLE = { firstPrompt: 'string?' } as const;

/** The facts as the index keeps them: no transcript text (a pending call's command is never kept), the title apart. */
function keptFacts(facts: MessagesFacts): { head: unknown; tail: unknown } | null {
  if (!storableSignal(facts.signal)) return null;
  const { firstPrompt, ...rest } = facts;
  return { head: { firstPrompt }, tail: rest };
}

/** The facts back from the index; null when they are not in this shape (an older Lookout's). */
function restoredFacts(head: unknown, tail: unknown): MessagesFacts | null {
  if (!hasShape(tail, KEPT) || !hasShape(head, TITLE)) return null;
  const record = tail as Record<string, unknown>;
  const signal = signalFrom(record.signal);
  const turn = turnFrom(record.turn);
  if (signal === undefined || turn === undefined) return null;
  return {
    savedAt: tail.savedAt ?? null,
    lastAt: tail.lastAt ?? null,
    answeredAt: tail.answeredAt ?? null,
    signal,
    turn,
    firstPrompt: head.firstPrompt ?? null,
    count: tail.count,
  };
}

/** Long sessions carry whole tool outputs: generous, still small beside a machine's memory. */
const MESSAGES_CAP = 64 * 1024 * 1024;

interface Kept {
  facts: MessagesFacts;
  /** The file could not be parsed (caught mid-write, or broken): shown as a skipped record. */
  skipped: number;
}

export class MessagesFiles {
  // lstat: a link is not followed to a file elsewhere; its stamp only says when to read again (R2).
  private readonly files = new WholeFiles<Kept>({
    cap: MESSAGES_CAP,
    links: 'own',
    parse: (text, previous) => parseMessages(text, previous),
    // Not read whole: the last good reading stands.
    unreadable: (error, path, previous) => {
      this.problems.unreadableUnlessGone(path, error);
      return { value: { facts: previous?.facts ?? NO_MESSAGES, skipped: 0 } };
    },
    recall: (path, info) => this.recall(path, info),
  });

  constructor(
    private readonly problems: Problems,
    private readonly index: SessionIndexPort = NO_INDEX,
  ) {}

  /** The file's facts; the previous ones while it cannot be read whole. */
  read(path: string): { facts: MessagesFacts; skipped: number; stamp: string } {
    const found = this.files.read(path);
    if (found.kind === 'gone') return { facts: NO_MESSAGES, skipped: 0, stamp: '-' };
    if (found.fresh && !found.again) this.remember(path, found.info, found.value.facts);
    return { ...found.value, stamp: found.again ? `${found.stamp}:retry` : found.stamp };
  }

  /** What the index kept of this very file, unchanged since (same device, inode, size and time). */
  private recall(path: string, info: Stats): Settled<Kept> | null {
    if (!info.isFile() || !this.index.has(PROVIDER, path)) return null;
    const entry = this.index.get(PROVIDER, path, info.dev, info.ino);
    const identity = entry?.identity;
    if (
      entry === undefined ||
      identity === undefined ||
      identity.dev !== info.dev ||
      identity.ino !== info.ino ||
      identity.size !== info.size ||
      identity.mtimeMs !== info.mtimeMs
    )
      return null;
    const facts = restoredFacts(entry.head, entry.tail?.facts);
    return facts === null ? null : { value: { facts, skipped: 0 } };
  }

  private remember(path: string, info: Stats, facts: MessagesFacts): void {
    const kept = keptFacts(facts);
    if (kept === null) return;
    // The file is read whole: no head hash, no window; its identity and time say it is the same.
    this.index.put(PROVIDER, path, {
      identity: { dev: info.dev, ino: info.ino, size: info.size, mtimeMs: info.mtimeMs, head: '' },
      head: kept.head,
      middle: null,
      tail: { facts: kept.tail, malformed: 0, oversized: 0, tailFrom: 0 },
    });
  }

  /** Forgets files no session names any more. */
  keepOnly(paths: ReadonlySet<string>): void {
    this.files.keep(paths);
  }
}

/** The facts of the file's text; half-written or broken: the last good reading stands, read again next time. */
function parseMessages(text: string, previous: Kept | undefined): Settled<Kept> {
  let file: ReturnType<typeof obj> = null;
  try {
    file = obj(JSON.parse(text));
  } catch {
    file = null;
  }
  if (file === null) return { value: { facts: previous?.facts ?? NO_MESSAGES, skipped: 1 }, again: true };
  return { value: { facts: foldMessages(file), skipped: 0 } };
}
