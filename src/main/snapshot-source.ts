// One evaluation from the providers' files: what `status`, `explain` and `next` show.
import type { SessionEvidence } from '../engine';
import { ClaudeProvider } from '../providers/claude/provider';
import { CodexProvider } from '../providers/codex/provider';
import type { Problem } from '../providers/problems';
import type { ProviderRoots } from '../providers/roots';
import type { EvidenceSource } from '../providers/source';

export function createSources(roots: ProviderRoots, watching = false): EvidenceSource[] {
  return [new ClaudeProvider(roots.claude, undefined, watching), new CodexProvider(roots.codex)];
}

export async function collectEvidence(sources: readonly EvidenceSource[], now: number, changed?: ReadonlySet<string>): Promise<{ evidence: SessionEvidence[]; problems: Problem[] }> {
  const results = await Promise.all(sources.map((source) => source.sync(now, changed)));
  return { evidence: results.flat(), problems: sources.flatMap((source) => source.problems.drain()) };
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
