// The frame every agent's scenario file shares: skip (saying why) when the agent is not installed,
// one scenario at a time, each ended after its test whatever happened.
import { afterEach } from 'vitest';
import type { AgentLab } from './agents/agent';
import type { ScenarioOptions } from './scenario';
import { LAB_MODULES, Scenario } from './scenario';

export function installed(agent: AgentLab): boolean {
  const found = agent.binary(LAB_MODULES) !== null;
  if (!found) console.warn(`live lab: ${agent.npmPackage} is not installed under ${LAB_MODULES}; run npm install in test/live`);
  return found;
}

export function suiteName(agent: AgentLab): string {
  return `${agent.npmPackage} ${agent.version(LAB_MODULES) ?? '(not installed)'} in the live lab`;
}

/** Starts scenarios for the current test and ends each after it. */
export function scenarios(agent: AgentLab): (options: ScenarioOptions) => Promise<Scenario> {
  let current: Scenario | null = null;
  afterEach(async () => {
    await current?.end();
    current = null;
  });
  return async (options) => {
    current = await Scenario.start(agent, options);
    return current;
  };
}
