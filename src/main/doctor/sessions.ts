// The sessions each agent's files hold, read once by the one pipeline (as `status` reads them),
// without evaluating: nothing is recorded, no rule applied, the session index left as it is.
import type { UserFacts } from '../../engine';
import type { ProviderRoots } from '../../providers';
import { FactWriter } from '../facts/fact-writer';
import { Pipeline } from '../pipeline/pipeline';
import type { FactStore } from '../store/facts-store';

export interface SessionCount {
  /** Sessions by agent id. */
  byAgent: Record<string, number>;
  /** What reading said (files skipped, records it could not use). */
  lines: string[];
}

export async function countSessions(roots: ProviderRoots, home: string, store: FactStore, facts: UserFacts, now: number): Promise<SessionCount> {
  const lines: string[] = [];
  // The pipeline words its lines for stderr ("lookout: …"); doctor lists them under a heading.
  const onProblem = (line: string): void => {
    lines.push(line.replace(/^lookout: /, ''));
  };
  const pipeline = new Pipeline({ roots, home, watching: false, writer: new FactWriter(store, facts, onProblem), onProblem });
  try {
    await pipeline.collect(now);
  } catch (error) {
    // A count is a nicety: a reader that throws is said, and the rest of the report stands.
    lines.push(`reading the agents' files failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  const byAgent: Record<string, number> = {};
  for (const item of pipeline.evidence) byAgent[item.provider] = (byAgent[item.provider] ?? 0) + 1;
  return { byAgent, lines };
}
