// Opening one of this machine's sessions from a running runtime (`watch --notify`'s Open): as
// `lookout open` does, with the visit recorded.
import type { Evaluation, Settings } from '../../engine';
import type { ProviderRoots } from '../../providers';
import { planOpen } from './plan';
import { systemProbes } from './probes';
import { openedLine, runPlan } from './run';
import { openTarget } from './session-process';

/** What opening needs of a running Lookout (the runtime is one). */
export interface OpenHost {
  readonly evaluation: Evaluation | null;
  readonly roots: ProviderRoots;
  readonly settings: Pick<Settings, 'openCommand'>;
  readonly home: string;
  readonly now: number;
  readonly facts: { visit(key: string, cwd: string | null, now: number): Promise<void> };
  evaluateNow(): void;
}

/** Opens the session and records the visit; says what was done. */
export async function openLocal(runtime: OpenHost, key: string): Promise<string> {
  const session = runtime.evaluation?.derived.get(key);
  if (session === undefined) throw new Error(`${key} is not a session of this machine`);
  const plan = planOpen(openTarget(session.evidence, session.observed.state, runtime.roots), runtime.settings.openCommand, systemProbes());
  await runPlan(plan, runtime.home);
  await runtime.facts.visit(key, session.evidence.cwd, runtime.now);
  runtime.evaluateNow();
  return openedLine(key, plan);
}
