// Working trees per folder, read only when a finish claim depends on them, at most every
// gitRefresh per folder, and again when a newer turn ended there (issue 4).
import type { Evaluation, WorkingTree } from '../../engine';
import { readWorkingTree } from './working-tree';

interface Entry {
  tree: WorkingTree;
  readAt: number;
}

export class TreeCache {
  private readonly trees = new Map<string, Entry>();
  private readonly reading = new Set<string>();

  constructor(private readonly read: (cwd: string, now: number) => Promise<WorkingTree> = readWorkingTree) {}

  get(cwd: string | null): WorkingTree | undefined {
    return cwd === null ? undefined : this.trees.get(cwd)?.tree;
  }

  /**
   * Starts reads for the folders the evaluation wants and that are due; resolves true when any
   * tree changed (the caller re-evaluates then).
   */
  async refresh(evaluation: Evaluation, now: number, gitRefresh: number): Promise<boolean> {
    const due = new Set<string>();
    for (const session of evaluation.derived.values()) {
      const cwd = session.evidence.cwd;
      if (!session.wantsWorkingTree || cwd === null || this.reading.has(cwd)) continue;
      const entry = this.trees.get(cwd);
      const turnEnd = session.evidence.turn?.endedAt ?? session.observed.at;
      const stale = entry === undefined || now - entry.readAt >= gitRefresh || entry.readAt < turnEnd;
      if (stale) due.add(cwd);
    }
    if (due.size === 0) return false;
    let changed = false;
    await Promise.all(
      [...due].map(async (cwd) => {
        this.reading.add(cwd);
        try {
          // Stamped with the read's time whatever git said: the engine tells a finish only after it.
          const tree: WorkingTree = { ...(await this.read(cwd, now)), at: now };
          const before = this.trees.get(cwd)?.tree;
          this.trees.set(cwd, { tree, readAt: now });
          if (JSON.stringify(before) !== JSON.stringify(tree)) changed = true;
        } finally {
          this.reading.delete(cwd);
        }
      }),
    );
    return changed;
  }
}
