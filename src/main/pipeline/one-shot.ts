// A one-shot command's evaluation: the pipeline run once over the files as they are, the working
// trees a finish claim needs read, and problems printed on stderr.
import type { Evaluation, SessionEvidence, Snapshot } from '../../engine';
import { mergeHosts } from '../../engine';
import { probeHosts } from '../hosts/probe';
import { printLines } from '../cli/terminal-text';
import { FactWriter } from '../facts/fact-writer';
import { Pipeline } from './pipeline';
import { SessionIndexStore } from '../store/session-index-store';
import type { RuntimeState } from './state';
import { loadState } from './state';

export interface CommandEvaluation {
  state: RuntimeState;
  evidence: readonly SessionEvidence[];
  evaluation: Evaluation;
  /** Records the user's facts (review, mute, visit, …). */
  writer: FactWriter;
}

export function reportProblems(lines: readonly string[]): void {
  printLines(process.stderr, lines);
}

const toStderr = (line: string): void => reportProblems([line]);

/**
 * This machine's snapshot with every host's (issue 13): each host is asked once, at the same time;
 * one that does not answer adds no rows and one line on stderr.
 */
export async function withHosts(context: CommandEvaluation): Promise<Snapshot> {
  const { hosts } = context.state;
  if (hosts.length === 0) return context.evaluation.snapshot;
  const views = await probeHosts(hosts, { env: process.env, clock: Date.now, onProblem: toStderr });
  return mergeHosts(context.evaluation.snapshot, views);
}

export async function evaluateFromDisk(now: number): Promise<CommandEvaluation> {
  const state = loadState(now);
  reportProblems(state.problems);
  const writer = new FactWriter(state.store, state.facts, toStderr);
  // What earlier runs learned of the files (heads, titles from middles): a file read afresh here is
  // added to it, so the next command skips its head (issue 14).
  const index = new SessionIndexStore(state.home, () => now, toStderr);
  const pipeline = new Pipeline({ roots: state.roots, home: state.home, watching: false, writer, onProblem: toStderr, index });
  await pipeline.collect(now);
  const context = { settings: state.settings, now, onScreen: null };
  let evaluation = pipeline.evaluate(context);
  // Every wanted tree is read now (a refresh interval of 0): a one-shot sees the tree as it is.
  // Only the sessions that wanted a tree are derived again; the rest are reused as they are.
  if (await pipeline.refreshTrees(evaluation, now, 0)) evaluation = pipeline.evaluate({ ...context, previous: evaluation, treesOnlyWhereWanted: true });
  index.flush();
  return { state, evidence: pipeline.evidence, evaluation, writer };
}
