// Sequences every agent's scenarios share: a turn held then released, a kill mid-turn, a subagent
// at work. Each waits for what the agent really did before it reads the row.
import { expect } from 'vitest';
import type { LabRow } from './lookout';
import type { Scenario } from './scenario';
import type { ToolCall } from './script';
import { waitFor } from '../../wait';

/** A turn the model holds open reads running; released, it reads finished. */
export async function runningThenFinished(lab: Scenario): Promise<LabRow> {
  await lab.prompt('take your time');
  await lab.held();
  await lab.expectRow('running', (row) => row.observed.state === 'running');
  await lab.releaseHold();
  const row = await lab.expectRow('finished', (row) => row.observed.state === 'idle' && row.observed.reason === 'turn-finished');
  expect(row.observed.reason).toBe('turn-finished');
  return row;
}

/** kill -9 of the agent and everything it started, mid-turn: the row must read ended. */
export async function killedMidTurn(lab: Scenario): Promise<LabRow> {
  await lab.prompt('keep busy');
  await lab.held();
  await lab.expectRow('running', (row) => row.observed.state === 'running');
  lab.kill9();
  const row = await lab.expectRow('ended', (row) => row.observed.state === 'ended', 30_000);
  expect(row.observed.reason).toBe('process-gone');
  return row;
}

/**
 * A subagent the model keeps busy reads running (or running-subagents); released, finished. `holds`:
 * how many streams the scenario holds at once (lead and subagent both asking); all are released
 * together, since one asking only after the release would stay held for good.
 */
export async function subagentAtWork(lab: Scenario, holds = 1): Promise<LabRow> {
  await lab.prompt('use a subagent');
  await lab.held();
  const row = await lab.expectRow('running with its subagent', (row) => row.observed.state === 'running' || row.observed.state === 'running-subagents');
  await lab.releaseHold(holds);
  await lab.expectRow('finished', (row) => row.observed.state === 'idle' && row.observed.reason === 'turn-finished');
  return row;
}

/** The replies for a subagent scenario: the lead's call, the subagent's held turn, the lead's answer. */
export function subagentReplies(call: ToolCall): [{ kind: 'tool'; call: ToolCall }, { kind: 'hold'; text: string }, { kind: 'text'; text: string }] {
  return [
    { kind: 'tool', call },
    { kind: 'hold', text: 'Subagent looking…' },
    { kind: 'text', text: 'Nothing here.' },
  ];
}

/**
 * opencode and its forks (Kilo) interrupt on a second Escape, once they have said so ("esc again
 * to interrupt"): the held turn must read idle/interrupted.
 */
export async function interruptedByEscapeTwice(lab: Scenario): Promise<LabRow> {
  await lab.prompt('a long job');
  await lab.expectRow('running', (row) => row.observed.state === 'running');
  await lab.held();
  await waitFor(
    'the interrupt taken',
    async () => {
      lab.tmux.keys('Escape');
      await lab.tmux.waitForScreen('asked to press again', (screen) => screen.includes('again to interrupt'), 5_000).catch(() => '');
      lab.tmux.keys('Escape');
      return lab.model.openHolds === 0
        ? true
        : await lab.tmux
            .waitForScreen('interrupted', (screen) => screen.includes('interrupted'), 5_000)
            .then(
              () => true,
              () => undefined,
            );
    },
    () => lab.tmux.screen(),
  );
  const row = await lab.expectRow('interrupted', (row) => row.observed.state === 'idle');
  expect(row.observed.reason).toBe('interrupted');
  return row;
}

/** A model that keeps failing (401): the agent retries, then gives up; the row reads error/api-error. */
export async function failedAfterRetries(lab: Scenario): Promise<LabRow> {
  await lab.prompt('this will fail');
  const row = await lab.expectRow('error', (row) => row.observed.state === 'error', 150_000);
  expect(row.observed.reason).toBe('api-error');
  expect(row.claim?.kind).toBe('failed');
  return row;
}
