// A usage limit's moments, shared by the agents that have one: the limit hit reads limited with the
// reset the model sent; past the reset the claim is limit-reset; a new prompt runs and finishes.
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { LabRow, LabSnapshot } from './lookout';
import { lookout } from './lookout';
import type { Scenario } from './scenario';

/** A row at a usage limit: `resetsAt` is the instant it resets (ISO, or null). */
export type LimitRow = LabRow;

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
 * The limit hit: limited/usage-limit with the agent's words (`detail`), the claim `limited` and the
 * reset (`slackMs` 0 where the record has the instant; 60 000 where the agent prints only a clock
 * time). A `resetsAt` of null: the agent names no reset, so the row has none (never a guess).
 */
export async function limitedUntil(lab: Scenario, resetsAt: number | null, slackMs: number, detail: RegExp = /hit your/): Promise<LimitRow> {
  const row: LimitRow = await lab.expectRow('limited', (row) => row.observed.state === 'limited', 240_000);
  expect(row.observed.reason).toBe('usage-limit');
  expect(row.observed.detail ?? '').toMatch(detail);
  expect(row.claim?.kind).toBe('limited');
  if (resetsAt === null) expect(row.resetsAt ?? null).toBeNull();
  else expect(Math.abs(Date.parse(row.resetsAt ?? '') - resetsAt * 1000)).toBeLessThanOrEqual(slackMs);
  return row;
}

/** Asked a minute past the reset, the same row's claim says it can go on. */
export function resetPassed(lab: Scenario, resetsAt: number): LimitRow {
  const rows = statusAt(lab, new Date(resetsAt * 1000 + 60_000));
  expect(rows).toHaveLength(1);
  const [row] = rows;
  expect(row?.observed.state).toBe('limited');
  expect(row?.claim?.kind).toBe('limit-reset');
  return row as LimitRow;
}

/** With no reset named, six hours later (past any 5-hour window) the row still says limited: no reset is made up (R80). */
export function noResetGuessed(lab: Scenario): LimitRow {
  const rows = statusAt(lab, new Date(Date.now() + 6 * 3600_000));
  expect(rows).toHaveLength(1);
  const [row] = rows;
  expect(row?.observed.state).toBe('limited');
  expect(row?.claim?.kind).toBe('limited');
  expect(row?.resetsAt ?? null).toBeNull();
  return row as LimitRow;
}

const finished = (row: LabRow): boolean => row.observed.state === 'idle' && row.observed.reason === 'turn-finished';

/**
 * A new prompt in the same session, the model answering again: running while held, then finished.
 * `lift`: the limit was an error reply that stays until skipped; the model answers from now on.
 * `ended`: how the agent's finished turn reads (Gemini without hooks: unknown, never finished).
 */
export async function goesOnAfterLimit(lab: Scenario, lift = false, ended: (row: LabRow) => boolean = finished): Promise<LabRow> {
  if (lift) {
    lab.model.script.skip();
    lab.model.script.queue({ kind: 'hold', text: 'Back at it…' });
  }
  await lab.prompt('go on');
  await lab.held();
  await lab.expectRow('running again', (row) => row.observed.state === 'running');
  await lab.releaseHold();
  const row = await lab.expectRow('the turn ended', ended);
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
