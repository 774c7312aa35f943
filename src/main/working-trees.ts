// Reads the working trees a finish claim depends on, once per folder, and lays them on the evidence.
import type { Evaluation, SessionEvidence, WorkingTree } from '../engine';
import { sessionKey } from '../engine';
import { readWorkingTree } from './working-tree';

/** Folders whose working tree the engine asked for (`wantsWorkingTree`). */
export function foldersWanted(evaluation: Evaluation): Set<string> {
  const folders = new Set<string>();
  for (const session of evaluation.derived.values()) {
    if (session.wantsWorkingTree && session.evidence.cwd !== null) folders.add(session.evidence.cwd);
  }
  return folders;
}

export async function readTrees(folders: Iterable<string>, now: number): Promise<Map<string, WorkingTree>> {
  const trees = new Map<string, WorkingTree>();
  await Promise.all([...folders].map(async (folder) => trees.set(folder, await readWorkingTree(folder, now))));
  return trees;
}

export function withTrees(evidence: readonly SessionEvidence[], trees: ReadonlyMap<string, WorkingTree>): SessionEvidence[] {
  return evidence.map((item) => {
    const tree = item.cwd === null ? undefined : trees.get(item.cwd);
    return tree === undefined ? item : { ...item, workingTree: tree };
  });
}

export function keyOf(evidence: SessionEvidence): string {
  return sessionKey(evidence.provider, evidence.sessionId);
}
