// A usage limit's moments, shared by the agents that have one: the limit hit reads limited with the
// reset the model sent; past the reset the claim is limit-reset; a new prompt runs and finishes.
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { LabRow, LabSnapshot } from './lookout';
import { lookout } from './lookout';
import type { Scenario } from './scenario';

/** A row as the engine of issue 46 gives it: the reset instant on each row (ISO, or null). */
export type LimitRow = LabRow & { resetsAt?: string | null };

/** The lab model's reset a few hours ahead, in epoch seconds. */
export function resetInHours(hours: number): number {
  return Math.floor(Date.now() / 1000) + hours * 3600;
}

/**
 * `status --json --all --now <at>` on a copy of the scenario's Lookout home: a status asked at a
 * later instant records at it, which must not leak into the scenario's own later reads.
 */
export function statusAt(lab: Scenario, at: Date): LimitRow[] {
  const copy = mkdtempSync(join(lab.home.tmp, 'lookout-at-'));
  try {
    if (existsSync(lab.home.lookoutHome)) cpSync(lab.home.lookoutHome, copy, { recursive: true });
    const result = lookout(['status', '--json', '--all', '--now', at.toISOString()], { ...lab.lookoutEnv, LOOKOUT_HOME: copy });
    if (result.code !== 0) throw new Error(`lookout status --now exited ${String(result.code)}: ${result.stderr}`);
    return (JSON.parse(result.stdout) as LabSnapshot).sessions.filter((row) => row.provider === lab.agent.id);
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

/**
 * The limit hit: limited/usage-limit with the agent's words, the claim `limited` and the reset
 * (`slackMs` 0 where the record has the instant; 60 000 where the agent prints only a clock time).
 */
export async function limitedUntil(lab: Scenario, resetsAt: number, slackMs: number): Promise<LimitRow> {
  const row: LimitRow = await lab.expectRow('limited', (row) => row.observed.state === 'limited', 30_000);
  expect(row.observed.reason).toBe('usage-limit');
  expect(row.observed.detail ?? '').toMatch(/hit your/);
  expect(row.claim?.kind).toBe('limited');
  expect(Math.abs(Date.parse(row.resetsAt ?? '') - resetsAt * 1000)).toBeLessThanOrEqual(slackMs);
  return row;
}

/** Asked a minute past the reset, the same row's claim says it can go on. */
export function resetPassed(lab: Scenario, resetsAt: number): LimitRow {
  const rows = statusAt(lab, new Date(resetsAt * 1000 + 60_000));
  expect(rows).toHaveLength(1);
  const [row] = rows;
  expect(row?.claim?.kind).toBe('limit-reset');
  return row as LimitRow;
}

/** A new prompt in the same session, the model answering again: running while held, then finished. */
export async function goesOnAfterLimit(lab: Scenario): Promise<LabRow> {
  await lab.prompt('go on');
  await lab.held();
  await lab.expectRow('running again', (row) => row.observed.state === 'running');
  await lab.releaseHold();
  const row = await lab.expectRow('finished', (row) => row.observed.state === 'idle' && row.observed.reason === 'turn-finished');
  expect(row.claim?.kind ?? 'none').not.toMatch(/limit/);
  return row;
}

/** One provider's newest usage windows in `status --json` (R83). */
export interface LabLimits {
  provider: string;
  windows: { name: string; usedPercent: number; windowMinutes: number | null; resetsAt: string | null; at: string }[];
}

/** The snapshot's `limits` (issue 46's engine), or none where this build has no such field. */
export function usageLimits(lab: Scenario): LabLimits[] {
  const result = lookout(['status', '--json', '--all'], lab.lookoutEnv);
  if (result.code !== 0) throw new Error(`lookout status exited ${String(result.code)}: ${result.stderr}`);
  return (JSON.parse(result.stdout) as { limits?: LabLimits[] }).limits ?? [];
}
