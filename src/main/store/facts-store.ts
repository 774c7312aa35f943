// The user-fact store (store.json): lowdb for atomic writes, zod on every load, a lock across
// processes, migrations between schema versions, bad files kept aside (docs/runtime.md).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SyncAdapter } from 'lowdb';
import { LowSync } from 'lowdb';
import { prettifyError } from 'zod/mini';
import type { UserFacts } from '../../engine';
import { errorCode } from '../../providers/problems';
import { withLock } from '../../providers/system/folder-lock';
import { privateFolder, writePrivate } from '../../providers/system/private-files';
import { keepAside } from './quarantine';
import { boundLedger } from './notified-ledger';
import type { StoreFile } from './schema';
import { STORE_VERSION, emptyStore, storeSchema, storeV1Schema } from './schema';

/** store.json for lowdb: plain JSON read back, written atomically and private (0600). */
class PrivateJsonFile implements SyncAdapter<unknown> {
  constructor(private readonly path: string) {}

  read(): unknown {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return null;
      throw error;
    }
    // Validation (and keeping a bad file aside) happens in FactStore.read.
    return JSON.parse(text) as unknown;
  }

  write(data: unknown): void {
    writePrivate(this.path, `${JSON.stringify(data, null, 1)}\n`);
  }
}

export interface LoadResult {
  file: StoreFile;
  /** One line per problem met (a file kept aside), for stderr and the app. */
  problems: string[];
}

const toMs = (text: string): number => Date.parse(text);
const toMsOrNull = (text: string | null): number | null => (text === null ? null : Date.parse(text));

/** Upgrades an older file to the current shape; null when the shape is not one we know. */
export function migrate(raw: unknown): StoreFile | null {
  const version = (raw as { schemaVersion?: unknown } | null)?.schemaVersion;
  if (version === STORE_VERSION) {
    const parsed = storeSchema.safeParse(raw);
    return parsed.success ? parsed.data : null;
  }
  if (version === 1) {
    const parsed = storeV1Schema.safeParse(raw);
    if (!parsed.success) return null;
    const old = parsed.data;
    return {
      schemaVersion: STORE_VERSION,
      reviews: Object.fromEntries(Object.entries(old.reviews).map(([key, review]) => [key, { ...review, lastActivityAt: null }])),
      mutes: old.mutes,
      visits: old.visits,
      attentionCalls: {},
      ruleLedger: old.ruleLedger.map((entry) => ({ ...entry, lastActivityAt: null })),
      notified: old.notified.map((id) => ({ id, at: new Date(0).toISOString() })),
    };
  }
  return null;
}

function whyInvalid(raw: unknown): string {
  const version = (raw as { schemaVersion?: unknown } | null)?.schemaVersion;
  if (typeof version === 'number' && version > STORE_VERSION) return `it was written by a newer Lookout (schema ${version}, this one reads ${STORE_VERSION})`;
  const parsed = storeSchema.safeParse(raw);
  return parsed.success ? 'unknown shape' : (prettifyError(parsed.error).split('\n')[0] ?? 'wrong shape');
}

export class FactStore {
  readonly path: string;
  private readonly lockDir: string;
  private readonly db: LowSync<unknown>;

  constructor(readonly home: string) {
    this.path = join(home, 'store.json');
    this.lockDir = join(home, '.store.lock');
    this.db = new LowSync<unknown>(new PrivateJsonFile(this.path), null);
  }

  /** Reads the store; a file that cannot be used is kept aside and the defaults apply. */
  read(now: number): LoadResult {
    let raw: unknown;
    try {
      this.db.read();
      raw = this.db.data;
    } catch (error) {
      return this.setAside(`it is not valid JSON (${error instanceof Error ? error.message : String(error)})`, now);
    }
    if (raw === null) return { file: emptyStore(), problems: [] };
    const file = migrate(raw);
    return file === null ? this.setAside(whyInvalid(raw), now) : { file, problems: [] };
  }

  /** Read, change and write under the lock, so two processes lose no fact. */
  update(now: number, change: (file: StoreFile) => void): LoadResult {
    privateFolder(this.home);
    return withLock(this.lockDir, () => {
      const loaded = this.read(now);
      change(loaded.file);
      loaded.file.notified = boundLedger(loaded.file.notified);
      this.db.data = loaded.file;
      this.db.write();
      return loaded;
    });
  }

  private setAside(why: string, now: number): LoadResult {
    const aside = keepAside(this.path, now);
    return { file: emptyStore(), problems: [`lookout: ${this.path} could not be used (${why}); kept aside as ${aside}, starting from defaults`] };
  }
}

/** The engine's view of the stored facts (times in epoch ms). */
export function toFacts(file: StoreFile): UserFacts {
  return {
    reviews: Object.fromEntries(
      Object.entries(file.reviews).map(([key, review]) => [
        key,
        { state: review.state, at: toMs(review.at), lastActivityAt: toMsOrNull(review.lastActivityAt) },
      ]),
    ),
    mutes: Object.fromEntries(Object.entries(file.mutes).map(([key, mute]) => [key, { at: toMs(mute.at), until: toMsOrNull(mute.until) }])),
    visits: Object.fromEntries(Object.entries(file.visits).map(([key, visit]) => [key, { at: toMs(visit.at), fingerprint: visit.fingerprint }])),
    attentionCalls: Object.fromEntries(Object.entries(file.attentionCalls).map(([key, call]) => [key, { at: toMs(call.at), message: call.message }])),
    ruleLedger: file.ruleLedger.map((entry) => ({ ...entry, at: toMs(entry.at), lastActivityAt: toMsOrNull(entry.lastActivityAt) })),
    notified: file.notified.map((entry) => entry.id),
    pausedUntil: toMsOrNull(file.pausedUntil ?? null),
  };
}
