// The notifications held while it is quiet (issue 16), kept in LOOKOUT_HOME/quiet-held.json until
// their digest is told, so a restart within the quiet still tells them. Pending delivery, not a
// user fact: bounded in age and count, removed once told. Private (0600 in a 0700 folder, written
// atomically), changed under a lock across processes; a file that cannot be used is kept aside.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod/mini';
import { iso } from '../../engine';
import { errorCode } from '../../providers/problems';
import { withLock } from '../../providers/system/folder-lock';
import { privateFolder, writePrivate } from '../../providers/system/private-files';
import { keepAside } from './quarantine';

const HELD_VERSION = 1;
/** Held longer than this, a notification is no news: dropped (quiet hours span a day at most). */
export const HELD_MAX_AGE_MS = 24 * 3_600_000;
/** The newest this many are kept: the digest names a few and counts the rest. */
export const HELD_MAX = 200;

/** One notification held: when, its sessions with their claims (paired by position), its words. */
export interface HeldNotice {
  at: number;
  claimIds: string[];
  keys: string[];
  title: string;
  body: string;
}

const heldSchema = z
  .object({
    at: z.iso.datetime({ offset: true }),
    claimIds: z.array(z.string().check(z.maxLength(1000))).check(z.maxLength(500)),
    keys: z.array(z.string().check(z.maxLength(1000))).check(z.maxLength(500)),
    title: z.string().check(z.maxLength(2000)),
    body: z.string().check(z.maxLength(20_000)),
  })
  .check(z.refine((notice) => notice.keys.length === notice.claimIds.length, 'a held notification pairs each key with a claim'));
// More than HELD_MAX is cut to the newest on read (boundHeld), not refused.
const fileSchema = z.object({ schemaVersion: z.literal(HELD_VERSION), held: z.array(heldSchema) });

export function heldPath(home: string): string {
  return join(home, 'quiet-held.json');
}

/** The newest HELD_MAX, none older than HELD_MAX_AGE_MS, oldest first. */
export function boundHeld(held: readonly HeldNotice[], now: number): HeldNotice[] {
  return held.filter((notice) => now - notice.at <= HELD_MAX_AGE_MS).slice(-HELD_MAX);
}

export class HeldStore {
  readonly path: string;
  private readonly lockDir: string;
  private failed = false;

  constructor(
    private readonly home: string,
    private readonly onProblem: (line: string) => void,
  ) {
    this.path = heldPath(home);
    this.lockDir = join(home, '.quiet-held.lock');
  }

  /** Whether anything may be kept: a stat, as it is asked at every beat out of the quiet. */
  get pending(): boolean {
    return existsSync(this.path);
  }

  /** On start: what a run before held is read back, the old dropped and a bad file kept aside. */
  restore(now: number): void {
    if (this.pending) this.change(now, (held) => held);
  }

  /** Keeps one more; false when it could not be written (the caller holds it in memory). */
  add(notice: HeldNotice, now: number): boolean {
    return this.change(now, (held) => [...held, notice]) !== null;
  }

  /** Everything kept, the file removed: whoever takes them tells them, once. Null when it could not be read. */
  take(now: number): HeldNotice[] | null {
    let taken: HeldNotice[] = [];
    const done = this.change(now, (held) => {
      taken = held;
      return [];
    });
    return done === null ? null : taken;
  }

  /** Read, change and write under the lock; null (said once) when the folder cannot be written. */
  private change(now: number, edit: (held: HeldNotice[]) => HeldNotice[]): HeldNotice[] | null {
    try {
      privateFolder(this.home);
      return withLock(this.lockDir, () => {
        const held = boundHeld(edit(this.read(now)), now);
        if (held.length === 0) rmSync(this.path, { force: true });
        else
          writePrivate(
            this.path,
            `${JSON.stringify({ schemaVersion: HELD_VERSION, held: held.map((notice) => ({ ...notice, at: iso(notice.at) })) }, null, 1)}\n`,
          );
        return held;
      });
    } catch (error) {
      if (!this.failed)
        this.onProblem(
          `lookout: could not keep the notifications held while quiet in ${this.path} (${errorCode(error) ?? (error instanceof Error ? error.message : String(error))}); a restart before the quiet ends would lose their digest`,
        );
      this.failed = true;
      return null;
    }
  }

  private read(now: number): HeldNotice[] {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return [];
      throw error;
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (error) {
      return this.setAside(`it is not valid JSON (${error instanceof Error ? error.message : String(error)})`, now);
    }
    const version = (raw as { schemaVersion?: unknown } | null)?.schemaVersion;
    if (typeof version === 'number' && version > HELD_VERSION) return this.setAside(`it was written by a newer Lookout (schema ${version})`, now);
    const parsed = fileSchema.safeParse(raw);
    if (!parsed.success) return this.setAside(z.prettifyError(parsed.error).split('\n')[0] ?? 'wrong shape', now);
    return boundHeld(
      parsed.data.held.map((notice) => ({ ...notice, at: Date.parse(notice.at) })),
      now,
    );
  }

  private setAside(why: string, now: number): HeldNotice[] {
    const aside = keepAside(this.path, now);
    this.onProblem(`lookout: ${this.path} could not be used (${why}); kept aside as ${aside}; what was held while quiet before it is not told`);
    return [];
  }
}
