// What every provider offers the runtime: evidence for all its sessions, re-read incrementally.
import type { SessionEvidence } from '../engine';
import type { Problems } from './problems';
import type { Accumulator, TailedFile } from './tailed-file';
import { errorCode } from './problems';
import { sep } from 'node:path';

export interface EvidenceSource {
  readonly name: string;
  readonly root: string;
  readonly problems: Problems;
  /**
   * Re-reads what changed and returns evidence for every session. With `changed`, only those
   * paths are re-read (and discovery runs); without it, every known file is checked. When
   * nothing changed, the very same array as last time is returned (the runtime then skips work).
   */
  sync(now: number, changed?: ReadonlySet<string>): Promise<SessionEvidence[]>;
  /** Lets go of what it holds open (a database connection), when the runtime stops. */
  dispose?(): void;
  /**
   * One bounded step of background reading (issue 14: the middle of long files, for what a cold
   * read cannot see), at most `budget` bytes. `worked`: there was something to do; `changed`: a
   * row's evidence changed (the next sync assembles it again).
   */
  backgroundStep?(budget: number): { worked: boolean; changed: boolean };
}

/**
 * Loads new files and updates changed ones. A file that vanished is dropped; one that cannot be
 * read is reported once and skipped. Says whether any file was added, dropped or grew. Every read
 * is synchronous and holds its file open only while it reads: one file at a time, no promise per
 * file (2,000 of them cost a warm status ~5 % for nothing, issue 27).
 */
export function syncFiles<A extends Accumulator>(
  known: Map<string, TailedFile<A>>,
  present: readonly string[],
  make: (path: string) => TailedFile<A>,
  changed: ReadonlySet<string> | undefined,
  problems: Problems,
): boolean {
  const wanted = new Set(present);
  let touched = false;
  for (const path of known.keys()) {
    if (wanted.has(path)) continue;
    known.delete(path);
    touched = true;
  }
  for (const path of present) {
    const existing = known.get(path);
    if (existing !== undefined && changed !== undefined && !changed.has(path)) continue;
    try {
      if (existing === undefined) {
        const file = make(path);
        file.load();
        known.set(path, file);
        touched = true;
      } else if (existing.update()) touched = true;
    } catch (error) {
      const code = errorCode(error);
      if (code === 'ENOENT') {
        if (known.delete(path)) touched = true;
      } else problems.add({ kind: 'unreadable', path, detail: code ?? String(error) });
    }
  }
  return touched;
}

/**
 * Whether a sync must look at this root at all: a full sync (liveness, processes), or a changed
 * path under it. Another agent's file changing is no reason to list this one's folders again.
 */
export function touchesRoot(changed: ReadonlySet<string> | undefined, root: string): boolean {
  if (changed === undefined) return true;
  for (const path of changed) if (underRoot(path, root)) return true;
  return false;
}

/** Whether one path is the root or inside it. */
export function underRoot(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : `${root}${sep}`);
}
