// LOOKOUT_HOME/index.json (issue 14): what providers learned of their files, a cache — deleting it
// changes nothing but speed. Versioned and validated: a corrupt one is kept aside and rebuilt, one
// from a newer Lookout is left alone and not used; written atomically and private; merged with the
// file on disk before each write, so two Lookouts sharing a home (app and CLI) lose nothing and
// never corrupt it. Holds titles at most, never user facts or other transcript text.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod/mini';
import type { MiddleFacts, SessionIndexPort } from '../../providers/session-index';
import { writePrivate } from '../../providers/system/private-files';
import { errorCode } from '../../providers/problems';
import { keepAside } from './quarantine';

export const INDEX_VERSION = 1;
/** Written this long after the last change: a scan's many small steps make one write. */
const SAVE_DELAY_MS = 2000;

const factsSchema = z.object({
  identity: z.object({ dev: z.number(), ino: z.number(), size: z.number(), head: z.string() }),
  customTitle: z.nullable(z.string()),
  summaryTitle: z.nullable(z.string()),
});
const indexSchema = z.object({
  version: z.literal(INDEX_VERSION),
  providers: z.record(z.string(), z.record(z.string(), factsSchema)),
});
type IndexFile = z.infer<typeof indexSchema>;

export function indexPath(home: string): string {
  return join(home, 'index.json');
}

export class SessionIndexStore implements SessionIndexPort {
  private data: IndexFile = { version: INDEX_VERSION, providers: {} };
  private readonly changed = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private unwritable = false;
  /** A newer Lookout's index: read by neither, overwritten by neither. */
  private foreign = false;

  constructor(
    private readonly home: string,
    private readonly now: () => number,
    private readonly onProblem: (line: string) => void,
  ) {
    this.data = this.read(true) ?? this.data;
  }

  /** The file as it is; null when absent, corrupt (kept aside, said once) or newer (said once). */
  private read(report: boolean): IndexFile | null {
    const path = indexPath(this.home);
    if (!existsSync(path)) return null;
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(path, 'utf8'));
    } catch (error) {
      const code = errorCode(error);
      if (code === 'ENOENT') return null;
      if (code !== null) {
        // Not readable (a folder in its place, no permission): Lookout works without it, and leaves it be.
        if (report && !this.unwritable) this.onProblem(`lookout: ${path} cannot be read (${code}); Lookout works without its index (titles learned from the middle of long files last until it stops)`);
        this.unwritable = true;
        return null;
      }
      if (report) this.setAside(path, 'it is not valid JSON');
      return null;
    }
    const version = (raw as { version?: unknown } | null)?.version;
    if (typeof version === 'number' && version > INDEX_VERSION) {
      this.foreign = true;
      if (report) this.onProblem(`lookout: ${path} was written by a newer Lookout (version ${version}); it is left as it is and not used`);
      return null;
    }
    const parsed = indexSchema.safeParse(raw);
    if (!parsed.success) {
      if (report) this.setAside(path, 'it does not have the expected shape');
      return null;
    }
    return parsed.data;
  }

  private setAside(path: string, why: string): void {
    try {
      const aside = keepAside(path, this.now());
      this.onProblem(`lookout: ${path} could not be used (${why}); kept aside as ${aside} and rebuilt (it is a cache: nothing is lost)`);
    } catch {
      this.onProblem(`lookout: ${path} could not be used (${why}); it is rebuilt in memory`);
    }
  }

  get(provider: string, path: string): MiddleFacts | undefined {
    return this.data.providers[provider]?.[path];
  }

  put(provider: string, path: string, facts: MiddleFacts): void {
    const files = (this.data.providers[provider] ??= {});
    files[path] = facts;
    this.changed.add(`${provider}\n${path}`);
    if (this.timer === null && !this.foreign) {
      this.timer = setTimeout(() => {
        this.timer = null;
        this.flush();
      }, SAVE_DELAY_MS);
    }
  }

  /** Writes what changed here over what is on disk now (another Lookout may have written meanwhile). */
  flush(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    if (this.changed.size === 0 || this.foreign || this.unwritable) return;
    const disk = this.read(false) ?? { version: INDEX_VERSION, providers: {} };
    for (const entry of this.changed) {
      const [provider = '', path = ''] = entry.split('\n');
      const facts = this.data.providers[provider]?.[path];
      if (facts === undefined) continue;
      const theirs = disk.providers[provider]?.[path];
      // Of two scans of one file, the one that read further wins.
      if (theirs !== undefined && theirs.identity.ino === facts.identity.ino && theirs.identity.size > facts.identity.size) continue;
      (disk.providers[provider] ??= {})[path] = facts;
    }
    this.changed.clear();
    try {
      writePrivate(indexPath(this.home), `${JSON.stringify(disk)}\n`);
      this.data = disk;
    } catch (error) {
      this.unwritable = true;
      this.onProblem(`lookout: ${indexPath(this.home)} cannot be written (${errorCode(error) ?? String(error)}); Lookout works without its index (titles learned from the middle of long files last until it stops)`);
    }
  }

  dispose(): void {
    this.flush();
  }
}
