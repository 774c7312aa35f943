// Working trees per folder, read only when a finish claim depends on them, at most every
// gitRefresh per folder, and again when a newer turn ended there (issue 4).
import type { Evaluation, WorkingTree } from '../../engine';
import { readWorkingTree } from './working-tree';

interface Entry {
  /** What git said, stamped with the read that first said it (or that a finish needed: see refresh). */
  tree: WorkingTree;
  readAt: number;
}

/** Whether two reads said the same, whenever they were made. */
function sameAnswer(a: WorkingTree, b: WorkingTree): boolean {
  return JSON.stringify({ ...a, at: 0 }) === JSON.stringify({ ...b, at: 0 });
}

export class TreeCache {
  private readonly trees = new Map<string, Entry>();
  private readonly reading = new Set<string>();
  private stored = 0;
  /** The last evaluation's wants, per folder: a beat that derived nothing again reuses them. */
  private wants: { from: Evaluation['derived']; sessions: readonly string[]; needed: ReadonlyMap<string, number> } | null = null;

  /** Counts the trees stored: the same count, the same trees (the pipeline lays them again only then). */
  get version(): number {
    return this.stored;
  }

  constructor(private readonly read: (cwd: string, now: number) => Promise<WorkingTree> = readWorkingTree) {}

  get(cwd: string | null): WorkingTree | undefined {
    return cwd === null ? undefined : this.trees.get(cwd)?.tree;
  }

  /**
   * Starts reads for the folders the evaluation wants and that are due; resolves true when any
   * tree changed (the caller re-evaluates then). A tree changes when git says something else, or
   * when a finish began after the tree's stamp (the engine tells it only once git was asked after:
   * treeKnown). A read every gitRefresh that says the same keeps the tree as it was, so 1,500
   * sessions in one folder are not derived again every 30 s for nothing (issue 27).
   */
  async refresh(evaluation: Evaluation, now: number, gitRefresh: number): Promise<boolean> {
    const due = new Map<string, number>();
    for (const [cwd, needed] of this.neededOf(evaluation)) {
      if (this.reading.has(cwd)) continue;
      const entry = this.trees.get(cwd);
      // Due when any wanting session there needs a newer stamp: then the latest of theirs.
      if (entry === undefined || now - entry.readAt >= gitRefresh || (entry.tree.at ?? Number.NEGATIVE_INFINITY) < needed) due.set(cwd, needed);
    }
    return this.readDue(due, now);
  }

  /**
   * Per folder, the latest instant a session wanting its tree needs the tree stamped at or after.
   * Made again only when the derivations changed: every beat walked 20,000 wanting sessions (issue 51).
   */
  private neededOf(evaluation: Evaluation): ReadonlyMap<string, number> {
    const { derived, wantingTrees } = evaluation;
    if (this.wants !== null && this.wants.from === derived && this.wants.sessions === wantingTrees) return this.wants.needed;
    const needed = new Map<string, number>();
    for (const key of wantingTrees) {
      const session = derived.get(key);
      const cwd = session?.evidence.cwd ?? null;
      if (session === undefined || cwd === null) continue;
      const at = Math.max(session.evidence.turn?.endedAt ?? session.observed.at, session.claim?.since ?? Number.NEGATIVE_INFINITY);
      needed.set(cwd, Math.max(needed.get(cwd) ?? Number.NEGATIVE_INFINITY, at));
    }
    this.wants = { from: derived, sessions: wantingTrees, needed };
    return needed;
  }

  /**
   * Reads these folders' trees now (those not being read already), before any evaluation asked
   * for them: a one-shot command then derives each session once (issue 27).
   */
  readAhead(folders: Iterable<string>, now: number): Promise<boolean> {
    const due = new Map<string, number>();
    for (const cwd of folders) if (!this.reading.has(cwd)) due.set(cwd, Number.NEGATIVE_INFINITY);
    return this.readDue(due, now);
  }

  /** Reads each due folder (with the stamp its finishes need); resolves true when any tree changed. */
  private async readDue(due: ReadonlyMap<string, number>, now: number): Promise<boolean> {
    if (due.size === 0) return false;
    let changed = false;
    await Promise.all(
      [...due].map(async ([cwd, needed]) => {
        this.reading.add(cwd);
        try {
          // Stamped with the read's time whatever git said: the engine tells a finish only after it.
          const tree: WorkingTree = { ...(await this.read(cwd, now)), at: now };
          const before = this.trees.get(cwd)?.tree;
          if (before !== undefined && sameAnswer(before, tree) && (before.at ?? Number.NEGATIVE_INFINITY) >= needed) {
            this.trees.set(cwd, { tree: before, readAt: now });
            return;
          }
          this.trees.set(cwd, { tree, readAt: now });
          this.stored += 1;
          changed = true;
        } finally {
          this.reading.delete(cwd);
        }
      }),
    );
    return changed;
  }
}
