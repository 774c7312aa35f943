// A one-shot command's evaluation: the pipeline run once over the files as they are, the working
// trees a finish claim needs read, and problems printed on stderr.
import type { Evaluation, Row, SessionEvidence, Snapshot } from '../../engine';
import { mergeHosts, splitHostKey } from '../../engine';
import { NoSessionMatch, matchSession } from '../cli/session-match';
import { UsageError } from '../cli/usage-error';
import type { HostConfig } from '../store/schema';
import { printLines } from '../text/terminal-text';
import { FactWriter } from '../facts/fact-writer';
import { Pipeline } from '../pipeline/pipeline';
import { SessionIndexStore } from '../store/session-index-store';
import type { RuntimeState } from '../pipeline/state';
import { loadState } from '../pipeline/state';

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
  // Loaded only when there are hosts to ask: a plain status does not pay for the feed's schemas.
  const { probeHosts } = await import('../hosts/probe');
  const views = await probeHosts(hosts, { env: process.env, clock: Date.now, onProblem: toStderr });
  return mergeHosts(context.evaluation.snapshot, views);
}

/**
 * The session a command names: this machine's rows first, so a local session never waits on ssh
 * (a host that is down costs its timeout); only a query nothing here answers goes to the hosts.
 */
export async function findSession(context: CommandEvaluation, query: string): Promise<Row> {
  try {
    return matchSession(context.evaluation.snapshot.sessions, query);
  } catch (error) {
    // Ambiguous or too short stays so; only "nothing here" is asked of the other machines.
    if (!(error instanceof NoSessionMatch) || context.state.hosts.length === 0) throw error;
  }
  return matchSession((await withHosts(context)).sessions, query);
}

/** The configured host of a remote row and the row's key on that host. */
export function remoteTarget(row: Row, context: CommandEvaluation): { host: HostConfig; key: string } {
  const host = context.state.hosts.find((item) => item.name === row.host);
  if (host === undefined) throw new UsageError(`no host ${row.host ?? ''}`);
  return { host, key: splitHostKey(row.key, [host.name]).key };
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
  // A one-shot sees each tree as it is now: read before deriving, wherever a finish may need one.
  await pipeline.readTreesAhead(state.settings, now);
  // A command reads one instant: when rows would next change is nobody's question.
  const context = { settings: state.settings, now, onScreen: null, once: true };
  let evaluation = pipeline.evaluate(context);
  // A tree still wanted (a finish with no recorded turn end, or a record whose clock is ahead of
  // ours) is read now; only the sessions that wanted it are derived again, the rest are reused.
  if (await pipeline.refreshTrees(evaluation, now, Number.POSITIVE_INFINITY))
    evaluation = pipeline.evaluate({ ...context, previous: evaluation, treesOnlyWhereWanted: true });
  index.flush();
  return { state, evidence: pipeline.evidence, evaluation, writer };
}
