// Evidence from every provider and the hook spool: what `status`, `explain`, `next` and the
// runtime evaluate.
import { spoolFolder } from './store/home';
import type { SessionEvidence } from '../engine';
import { ClaudeProvider } from '../providers/claude/provider';
import { CodexProvider } from '../providers/codex/provider';
import { mergeHooks } from '../providers/hooks/merge';
import { HookSpool } from '../providers/hooks/spool-reader';
import type { Problem } from '../providers/problems';
import type { ProviderRoots } from '../providers/roots';
import type { EvidenceSource } from '../providers/source';

export function createSources(roots: ProviderRoots, watching = false): EvidenceSource[] {
  return [new ClaudeProvider(roots.claude, undefined, watching), new CodexProvider(roots.codex)];
}

export { spoolFolder };

export function createSpool(home: string): HookSpool {
  return new HookSpool(spoolFolder(home));
}

export async function collectEvidence(
  sources: readonly EvidenceSource[],
  spool: HookSpool,
  now: number,
  changed?: ReadonlySet<string>,
): Promise<{ evidence: SessionEvidence[]; problems: Problem[] }> {
  const [hooks, ...results] = await Promise.all([spool.sync(), ...sources.map((source) => source.sync(now, changed))]);
  return { evidence: mergeHooks(results.flat(), hooks), problems: [...sources.flatMap((source) => source.problems.drain()), ...spool.problems.drain()] };
}

/** One line per problem, printed once on stderr ("counted, reported once"). */
export function describeProblems(problems: readonly Problem[]): string[] {
  if (problems.length === 0) return [];
  const unreadable = problems.filter((problem) => problem.kind === 'unreadable');
  const lines: string[] = [];
  if (unreadable.length > 0) {
    const first = unreadable[0];
    lines.push(`lookout: ${unreadable.length} path${unreadable.length === 1 ? '' : 's'} could not be read (first: ${first?.path}: ${first?.detail})`);
  }
  return lines;
}
