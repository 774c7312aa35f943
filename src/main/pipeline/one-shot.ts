// Shared by the one-shot commands: read every provider once, lay on the working trees a finish
// claim needs, evaluate at `now`, and record the automation rules that applied (R22).
import type { Evaluation, SessionEvidence } from '../../engine';
import { evaluate, iso, isoOrNull } from '../../engine';
import { collectEvidence, createSources, createSpool, describeProblems } from '../snapshot-source';
import type { RuntimeState } from '../state';
import { loadState } from '../state';
import { foldersWanted, readTrees, withTrees } from '../working-trees';

export interface CommandEvaluation {
  state: RuntimeState;
  evidence: SessionEvidence[];
  evaluation: Evaluation;
}

export function reportProblems(lines: readonly string[]): void {
  for (const line of lines) process.stderr.write(`${line}\n`);
}

export async function evaluateFromDisk(now: number): Promise<CommandEvaluation> {
  const state = loadState(now);
  reportProblems(state.problems);
  const sources = createSources(state.roots);
  const collected = await collectEvidence(sources, createSpool(state.home), now);
  reportProblems(describeProblems(collected.problems));
  const run = (evidence: readonly SessionEvidence[]): Evaluation => evaluate({ sessions: evidence, facts: state.facts, settings: state.settings, now, onScreen: null });
  let evidence = collected.evidence;
  let evaluation = run(evidence);
  const folders = foldersWanted(evaluation);
  if (folders.size > 0) {
    evidence = withTrees(evidence, await readTrees(folders, now));
    evaluation = run(evidence);
  }
  recordRules(state, evaluation, now);
  return { state, evidence, evaluation };
}

/** The evaluation that applies a rule shows it; the ledger makes it apply only once (R22). */
export function recordRules(state: RuntimeState, evaluation: Evaluation, now: number): void {
  if (evaluation.ruleApplications.length === 0) return;
  const result = state.store.update(now, (file) => {
    for (const entry of evaluation.ruleApplications) {
      file.ruleLedger.push({ key: entry.key, ruleId: entry.ruleId, version: entry.version, set: entry.set, at: iso(entry.at), lastActivityAt: isoOrNull(entry.lastActivityAt) });
    }
  });
  reportProblems(result.problems);
}
