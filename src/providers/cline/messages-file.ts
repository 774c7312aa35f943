// Each session's `<id>.messages.json`, read whole when it changed (the CLI rewrites it whole):
// checked first (a regular file, under a size cap, never a blocking open), parsed, folded.
import { lstatSync } from 'node:fs';
import type { Problems } from '../problems';
import { errorCode } from '../problems';
import { obj } from '../jsonl/parse-record';
import { readRegularText } from '../system/safe-read';
import type { MessagesFacts } from './messages';
import { NO_MESSAGES, foldMessages } from './messages';

/** Long sessions carry whole tool outputs: generous, still small beside a machine's memory. */
export const MESSAGES_CAP = 64 * 1024 * 1024;

interface Kept {
  stamp: string;
  facts: MessagesFacts;
  /** The file could not be parsed (caught mid-write, or broken): shown as a skipped record. */
  skipped: number;
}

export class MessagesFiles {
  private readonly kept = new Map<string, Kept>();

  constructor(private readonly problems: Problems) {}

  /** The file's facts; the previous ones while it cannot be read whole. */
  read(path: string): { facts: MessagesFacts; skipped: number; stamp: string } {
    let stamp: string;
    try {
      // lstat: a link is not followed to a file elsewhere; size and time only say when to read again (R2).
      const info = lstatSync(path);
      stamp = `${info.ino}:${info.size}:${info.mtimeMs}`;
    } catch {
      this.kept.delete(path);
      return { facts: NO_MESSAGES, skipped: 0, stamp: '-' };
    }
    const kept = this.kept.get(path);
    if (kept?.stamp === stamp) return kept;
    const fresh = this.parse(path, stamp, kept);
    this.kept.set(path, fresh);
    return fresh;
  }

  private parse(path: string, stamp: string, kept: Kept | undefined): Kept {
    let text: string;
    try {
      text = readRegularText(path, MESSAGES_CAP);
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') this.problems.add({ kind: 'unreadable', path, detail: errorCode(error) ?? String(error) });
      return { stamp, facts: kept?.facts ?? NO_MESSAGES, skipped: 0 };
    }
    let file: ReturnType<typeof obj> = null;
    try {
      file = obj(JSON.parse(text));
    } catch {
      file = null;
    }
    // Half-written or broken: the last good reading stands, and the stamp is not kept (read again next time).
    if (file === null) return { stamp: `${stamp}:retry`, facts: kept?.facts ?? NO_MESSAGES, skipped: 1 };
    return { stamp, facts: foldMessages(file), skipped: 0 };
  }

  /** Forgets files no session names any more. */
  keepOnly(paths: ReadonlySet<string>): void {
    for (const path of this.kept.keys()) if (!paths.has(path)) this.kept.delete(path);
  }
}
