// Shared by the one-shot commands: read every provider once and evaluate at `now`.
import type { Evaluation } from '../../engine';
import { defaultSettings, emptyFacts } from '../../engine';
import { rootsFromEnv } from '../../providers/roots';
import { collectEvidence, createSources, describeProblems, evaluateOnce } from '../snapshot-source';

export async function evaluateFromDisk(now: number): Promise<Evaluation> {
  const sources = createSources(rootsFromEnv());
  const { evidence, problems } = await collectEvidence(sources, now);
  for (const line of describeProblems(problems)) process.stderr.write(`${line}\n`);
  return evaluateOnce(evidence, emptyFacts(), defaultSettings(), now);
}
