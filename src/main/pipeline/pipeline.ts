// The one way files become a snapshot, for the one-shot commands and the runtime alike: collect
// the hook spool and every provider's evidence, drain their problems, merge the hooks, lay on
// the working trees known so far, evaluate, and record the rules the engine applied.
import type { Evaluation, Settings, SessionEvidence } from '../../engine';
import { evaluate, mayWantWorkingTree, sessionKey } from '../../engine';
import type { ProviderRoots } from '../../providers';
import { PROVIDERS, answerHints, answeringProviders, findProvider, shortNames, spoolReaders } from '../../providers';
import { mergeHooks } from '../../providers/hooks/merge';
import type { HookSession } from '../../providers/hooks/spool-reader';
import { HookSpool } from '../../providers/hooks/spool-reader';
import type { Problem } from '../../providers/problems';
import type { EvidenceSource } from '../../providers/source';
import type { SessionIndexPort } from '../../providers/session-index';
import { NO_INDEX } from '../../providers/session-index';
import { SameEvidence } from './keep-same';
import type { FactWriter } from '../facts/fact-writer';
import { spoolFolder } from '../store/home';
import { TreeCache } from '../git/tree-cache';
import { FirstSeen } from './first-seen';
import type { RequestsBySession } from '../answer/requests-file';
import { RequestsReader } from '../answer/requests-file';

export interface PipelineOptions {
  roots: ProviderRoots;
  home: string;
  /** A runtime watching live (a vanished registry entry means something then). */
  watching: boolean;
  writer: FactWriter;
  /** One line per problem, each reported once. */
  onProblem: (line: string) => void;
  /** What earlier runs learned of the providers' files (issue 14); none by default. */
  index?: SessionIndexPort;
}

export interface EvaluateContext {
  settings: Settings;
  now: number;
  onScreen: string | null;
  /** The previous evaluation, so unchanged sessions are reused (the runtime's beat). */
  previous?: Evaluation;
  /**
   * Lay working trees only on sessions the previous evaluation wanted one for (a one-shot's
   * second pass): the others keep their evidence object and are not derived again.
   */
  treesOnlyWhereWanted?: boolean;
  /** A one-shot's evaluation, read at this instant only (the engine's `once`). */
  once?: boolean;
}

const transcriptSourceOf = (provider: string): string => findProvider(provider)?.transcriptSource ?? `${provider}.transcript`;

/** One line per kind of problem, printed once ("counted, reported once"). */
function describeProblems(problems: readonly Problem[]): string[] {
  const unreadable = problems.filter((problem) => problem.kind === 'unreadable');
  const first = unreadable[0];
  if (first === undefined) return [];
  return [`lookout: ${unreadable.length} path${unreadable.length === 1 ? '' : 's'} could not be read (first: ${first.path}: ${first.detail})`];
}

/** The prompts an answer channel holds (§13), laid on their sessions. */
function withRequests(evidence: SessionEvidence[], requests: RequestsBySession): SessionEvidence[] {
  if (requests.size === 0) return evidence;
  return evidence.map((item) => {
    const held = requests.get(sessionKey(item.provider, item.sessionId));
    return held === undefined ? item : { ...item, requests: held };
  });
}

export class Pipeline {
  readonly spoolFolder: string;
  readonly trees = new TreeCache();
  private readonly sources: EvidenceSource[];
  private readonly spool: HookSpool;
  private readonly names = shortNames();
  private readonly hints = answerHints();
  private readonly answering = answeringProviders();

  /** Short display names by provider id (notifications). */
  get providerNames(): Readonly<Record<string, string>> {
    return this.names;
  }
  private hooks: ReadonlyMap<string, HookSession> = new Map();
  private results: SessionEvidence[][] = [];
  private merged: SessionEvidence[] = [];
  private collected = false;
  private readonly overlaid = new WeakMap<SessionEvidence, SessionEvidence>();
  private readonly same = new SameEvidence();
  private readonly firstSeen = new FirstSeen();
  private readonly requestsReader: RequestsReader;
  private requests: RequestsBySession = new Map();
  /** The last evidence laid with trees, and what it was made of. */
  private laid: { merged: SessionEvidence[]; trees: number; sessions: SessionEvidence[] } | null = null;

  constructor(private readonly options: PipelineOptions) {
    this.spoolFolder = spoolFolder(options.home);
    this.sources = PROVIDERS.map((provider) =>
      provider.createSource(options.roots[provider.id] ?? '', { watching: options.watching, index: options.index ?? NO_INDEX }),
    );
    this.spool = new HookSpool(this.spoolFolder, spoolReaders());
    this.requestsReader = new RequestsReader(options.home);
  }

  /** The merged evidence of the last collection. */
  get evidence(): readonly SessionEvidence[] {
    return this.merged;
  }

  /**
   * Re-reads what changed (every known file without `changed`); says whether the evidence
   * changed. Sources and the spool hand back the very same objects when nothing did.
   */
  async collect(now: number, changed?: ReadonlySet<string>): Promise<boolean> {
    const touchesSpool = changed === undefined || [...changed].some((path) => path.startsWith(this.spoolFolder));
    const hooks = touchesSpool ? await this.spool.sync() : this.hooks;
    const results = await Promise.all(this.sources.map((source) => source.sync(now, changed)));
    const problems = [...this.sources.flatMap((source) => source.problems.drain()), ...this.spool.problems.drain()];
    for (const line of describeProblems(problems)) this.options.onProblem(line);
    const requests = await this.requestsReader.read();
    const same = this.collected && hooks === this.hooks && requests === this.requests && results.every((result, index) => result === this.results[index]);
    this.results = results;
    this.hooks = hooks;
    this.requests = requests;
    this.collected = true;
    if (same) return false;
    this.merged = this.same.keep(this.firstSeen.mark(withRequests(mergeHooks(results.flat(), hooks, transcriptSourceOf), requests), now));
    return true;
  }

  /** Evaluates the collected evidence with the working trees read so far; records the rules applied (R22). */
  evaluate(context: EvaluateContext): Evaluation {
    const evaluation = evaluate({
      sessions: this.withTrees(context),
      facts: this.options.writer.facts,
      settings: context.settings,
      now: context.now,
      onScreen: context.onScreen,
      previous: context.previous,
      providerNames: this.names,
      answerHints: this.hints,
      answering: this.answering,
      once: context.once,
    });
    this.options.writer.recordRules(evaluation.ruleApplications, context.now);
    return evaluation;
  }

  /**
   * The evidence with the working trees read so far laid on. The same evidence and trees give the
   * very same array, so a beat's engine sees at once that only time moved (issue 27).
   */
  private withTrees(context: EvaluateContext): SessionEvidence[] {
    const laid = this.laid;
    if (context.treesOnlyWhereWanted !== true && laid !== null && laid.merged === this.merged && laid.trees === this.trees.version) return laid.sessions;
    const wanted = (item: SessionEvidence): boolean =>
      context.treesOnlyWhereWanted !== true || context.previous?.derived.get(sessionKey(item.provider, item.sessionId))?.wantsWorkingTree !== false;
    const sessions = this.merged.map((item) => {
      const tree = this.trees.get(item.cwd);
      if (tree === undefined || !wanted(item)) return item;
      // The same evidence under the same tree is the same object as last time: the engine reuses its row.
      const before = this.overlaid.get(item);
      if (before?.workingTree === tree) return before;
      const overlaid = { ...item, workingTree: tree };
      this.overlaid.set(item, overlaid);
      return overlaid;
    });
    this.laid = context.treesOnlyWhereWanted === true ? null : { merged: this.merged, trees: this.trees.version, sessions };
    return sessions;
  }

  /** One bounded step of the sources' background reading; what it did (see EvidenceSource.backgroundStep). */
  backgroundStep(budget: number): { worked: boolean; changed: boolean } {
    for (const source of this.sources) {
      const step = source.backgroundStep?.(budget);
      if (step?.worked === true) return step;
    }
    return { worked: false, changed: false };
  }

  /** Lets every source go of what it holds open. */
  dispose(): void {
    for (const source of this.sources) source.dispose?.();
  }

  /**
   * Reads, before any evaluation, the trees of the folders where a session whose turn ended may
   * want one (the engine's `mayWantWorkingTree`): a one-shot command then derives each session
   * once, where reading what the first evaluation asked for derived 1,500 of 2,000 sessions twice
   * (issue 27).
   */
  readTreesAhead(settings: Settings, now: number): Promise<boolean> {
    const folders = new Set<string>();
    for (const item of this.merged) {
      if (item.cwd !== null && !folders.has(item.cwd) && mayWantWorkingTree(item, this.options.writer.facts, now, settings.timings)) folders.add(item.cwd);
    }
    return this.trees.readAhead(folders, now);
  }

  /** Reads the working trees the evaluation asked for that are due; says whether any changed. */
  refreshTrees(evaluation: Evaluation, now: number, gitRefresh: number): Promise<boolean> {
    return this.trees.refresh(evaluation, now, gitRefresh);
  }
}
