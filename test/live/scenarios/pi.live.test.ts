// Pi, the real TUI against the lab's model (OpenAI chat completions, a custom provider): what
// Lookout says at each moment, against what the scenario did. Pi writes a new session's file only
// once its first reply is complete, so each scenario that reads a running turn answers a first
// prompt before it. Pi never asks before a tool call; an extension of the person's may.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { gateAsks, pi, piGated } from '../lab/agents/pi';
import { noResetGuessed } from '../lab/limits';
import type { LabRow } from '../lab/lookout';
import type { Scenario } from '../lab/scenario';
import { installed, scenarios, suiteName } from '../lab/suite';
import { QUOTA_MESSAGE, quotaResetReply, usageLimitReply } from '../lab/usage-limit';
import { waitFor } from '../../wait';

const past = (row: LabRow, ms: number): boolean => row.observed.at !== null && Date.now() - Date.parse(row.observed.at) > ms;

/** A first prompt answered in full: Pi has written the session's file, and the row reads finished. */
async function firstTurnDone(lab: Scenario): Promise<LabRow> {
  await lab.prompt('hello');
  return lab.expectRow('the first turn finished', (row) => row.observed.state === 'idle' && row.observed.reason === 'turn-finished');
}

/** A second turn the model holds open, read running. */
async function heldSecondTurn(lab: Scenario): Promise<LabRow> {
  await firstTurnDone(lab);
  await lab.prompt('take your time');
  await lab.held();
  return lab.expectRow('running', (row) => row.observed.state === 'running');
}

describe.skipIf(!installed(pi))(suiteName(pi), () => {
  const start = scenarios(pi);
  const startGated = scenarios(piGated);

  it("R1 a new session's first turn, held: Pi writes nothing until its first reply, so there is no row (never a made-up state); answered, it reads finished", async () => {
    const lab = await start({ name: 'first-turn', replies: [{ kind: 'hold', text: 'Thinking…' }] });
    await lab.prompt('take your time');
    await lab.held();
    expect(lab.rows()).toEqual([]);
    await lab.releaseHold();
    const row = await lab.expectRow('finished', (row) => row.observed.state === 'idle' && row.observed.reason === 'turn-finished');
    expect(row.observed.source).toBe('pi.session');
    expect(row.title).toBe('take your time');
  });

  it('R1 running: a later turn held reads running, then finished (stopReason "stop")', async () => {
    const lab = await start({
      name: 'running',
      replies: [
        { kind: 'text', text: 'Hi.' },
        { kind: 'hold', text: 'Thinking…' },
      ],
    });
    const running = await heldSecondTurn(lab);
    expect(running.observed).toMatchObject({ reason: 'turn-open', source: 'pi.session' });
    await lab.releaseHold();
    const row = await lab.expectRow('finished', (row) => row.observed.state === 'idle' && row.observed.reason === 'turn-finished');
    lab.record('finished', 'a held turn released: an assistant message with stopReason "stop"', row);
  });

  it('R3 Pi never asks before a call: a command still running past the grace reads running (tool-running), never "may be waiting"; then it finishes', async () => {
    const lab = await start({
      name: 'tool',
      replies: [
        { kind: 'tool', call: pi.tools.guardedShell('sleep 12 && touch pi-slow.txt') },
        { kind: 'text', text: 'Done waiting.' },
      ],
    });
    await lab.prompt('wait a while');
    const row = await lab.expectRow('running past the grace', (row) => row.observed.reason === 'tool-running' && past(row, 8_000));
    expect(row.observed.state).toBe('running');
    expect(row.observed.detail).toBe('bash: sleep 12 && touch pi-slow.txt');
    expect(row.claim).toBeNull();
    await waitFor(
      'the command ran',
      () => (existsSync(lab.projectFile('pi-slow.txt')) ? true : undefined),
      () => lab.tmux.screen(),
    );
    const done = await lab.expectRow('finished', (row) => row.observed.state === 'idle' && row.observed.reason === 'turn-finished');
    lab.record('tool-finished', 'a bash call, its toolResult, then the answer with stopReason "stop"', done);
  });

  it("R3 with an extension of the person's that asks (Pi's own permission-gate example): the pending call reads unknown (may be waiting) while its dialog is up, answered only in the terminal; allowed there, it runs and finishes", async () => {
    const lab = await startGated({
      name: 'gate',
      replies: [
        { kind: 'tool', call: pi.tools.guardedShell('rm -rf scratch && touch pi-gated.txt') },
        { kind: 'text', text: 'Cleaned.' },
      ],
    });
    await lab.prompt('clean up');
    await lab.tmux.waitForScreen('the extension asking', gateAsks);
    const row = await lab.expectRow('may be waiting', (row) => row.observed.state === 'unknown');
    expect(row.observed).toMatchObject({ reason: 'tool-pending', source: 'pi.session' });
    expect(row.observed.detail ?? '').toContain('rm -rf scratch');
    expect(row.claim?.kind).toBe('needs-you');
    expect(row.answer).toMatchObject({ state: 'unavailable' });
    lab.tmux.keys('Enter');
    await waitFor(
      'the allowed command ran',
      () => (existsSync(lab.projectFile('pi-gated.txt')) ? true : undefined),
      () => lab.tmux.screen(),
    );
    await lab.expectRow('finished', (row) => row.observed.state === 'idle' && row.observed.reason === 'turn-finished');
  });

  it('R13 a failed turn: a model that refuses the key (401, which Pi does not retry) reads error/api-error in its words', async () => {
    const lab = await start({
      name: 'error',
      replies: [
        { kind: 'text', text: 'Hi.' },
        { kind: 'error', status: 401, message: 'lab: bad key' },
      ],
    });
    await firstTurnDone(lab);
    await lab.prompt('this will fail');
    const row = await lab.expectRow('error', (row) => row.observed.state === 'error');
    expect(row.observed).toMatchObject({ reason: 'api-error', detail: '401 lab: bad key' });
    expect(row.claim?.kind).toBe('failed');
    expect(lab.model.mainRequests.filter((request) => request.reply === 'error')).toHaveLength(1);
    lab.record('error', 'a 401: one assistant message with stopReason "error", not retried', row);
  });

  it('R13 a server error Pi retries (500): running while it retries, each attempt written; after the last (three retries) it reads error, not finished', async () => {
    const lab = await start({
      name: 'retried',
      replies: [
        { kind: 'text', text: 'Hi.' },
        { kind: 'error', status: 500, message: 'lab: boom' },
      ],
    });
    await firstTurnDone(lab);
    await lab.prompt('this will fail');
    await waitFor(
      'a retry',
      () => (lab.model.mainRequests.filter((request) => request.reply === 'error').length > 1 ? true : undefined),
      () => lab.tmux.screen(),
    );
    const row = await lab.expectRow('error after the retries', (row) => row.observed.state !== 'running' && row.observed.state !== 'idle', 120_000);
    expect(row.observed).toMatchObject({ state: 'error', reason: 'api-error', detail: '500 lab: boom' });
    await lab.tmux.waitForScreen('Pi giving up', (screen) => screen.includes('Retry failed after 3 attempts'));
    lab.record('error-retried', 'a 500 retried three times: four assistant messages with stopReason "error"', row);
  });

  it("R80 a usage limit (429 insufficient_quota, no retry-after): Pi's retries spent, it reads limited/usage-limit in the provider's words, no reset made up", async () => {
    const lab = await start({ name: 'usage-limit', replies: [{ kind: 'text', text: 'Hi.' }, quotaResetReply(5 * 3600)] });
    await firstTurnDone(lab);
    await lab.prompt('this will hit the limit');
    const row = await lab.expectRow('limited', (row) => row.observed.state === 'limited', 180_000);
    expect(row.observed).toMatchObject({ reason: 'usage-limit', detail: `429 ${QUOTA_MESSAGE}` });
    expect(row.claim?.kind).toBe('limited');
    expect(row.resetsAt ?? null).toBeNull();
    await lab.tmux.waitForScreen('Pi giving up', (screen) => screen.includes('Retry failed after 3 attempts'));
    lab.record('usage-limit', 'a 429 insufficient_quota: four assistant messages with stopReason "error" naming the quota', row);
    noResetGuessed(lab);
  }, 240_000);

  it("R80 a usage limit whose 429 says retry-after an hour: Pi's HTTP client waits the hour and writes nothing, its screen says Working: the turn reads running, never finished or limited", async () => {
    const lab = await start({ name: 'usage-limit-wait', replies: [{ kind: 'text', text: 'Hi.' }, usageLimitReply()] });
    await firstTurnDone(lab);
    await lab.prompt('this will hit the limit');
    await waitFor(
      'the limit answered',
      () => (lab.model.mainRequests.some((request) => request.reply === 'error') ? true : undefined),
      () => lab.tmux.screen(),
    );
    const row = await lab.expectRow('running past the grace', (row) => row.observed.state === 'running' && past(row, 10_000));
    expect(row.observed.reason).toBe('turn-open');
    expect(lab.model.mainRequests.filter((request) => request.reply === 'error')).toHaveLength(1);
  });

  it('§11 Escape interrupts a held turn: "Operation aborted" (stopReason "aborted") reads idle/interrupted', async () => {
    const lab = await start({
      name: 'interrupt',
      replies: [
        { kind: 'text', text: 'Hi.' },
        { kind: 'hold', text: 'A long answer…' },
      ],
    });
    await heldSecondTurn(lab);
    lab.tmux.keys('Escape');
    const row = await lab.expectRow('interrupted', (row) => row.observed.state === 'idle');
    expect(row.observed.reason).toBe('interrupted');
    lab.record('interrupted', 'Escape mid-turn: the assistant message saved with stopReason "aborted"', row);
  });

  it('§11 Escape while a command runs: the command is stopped and the turn reads idle/interrupted, never running', async () => {
    const lab = await start({ name: 'interrupt-tool', replies: [{ kind: 'tool', call: pi.tools.guardedShell('sleep 60') }] });
    await lab.prompt('wait a minute');
    await lab.expectRow('the command running', (row) => row.observed.reason === 'tool-running' || row.observed.state === 'running');
    lab.tmux.keys('Escape');
    const row = await lab.expectRow('interrupted', (row) => row.observed.state !== 'running', 60_000);
    expect(row.observed).toMatchObject({ state: 'idle', reason: 'interrupted' });
    lab.record('interrupted-tool', 'Escape while bash ran: the aborted toolResult, then an assistant message with stopReason "aborted"', row);
  });

  it("R7 killed with kill -9 mid-turn: no Pi runs in the session's folder any more, the row reads ended", async () => {
    const lab = await start({
      name: 'kill',
      replies: [
        { kind: 'text', text: 'Hi.' },
        { kind: 'hold', text: 'Busy…' },
      ],
    });
    await heldSecondTurn(lab);
    lab.kill9();
    const row = await lab.expectRow('ended', (row) => row.observed.state === 'ended', 30_000);
    expect(row.observed).toMatchObject({ reason: 'process-gone', source: 'pi.process' });
    lab.record('killed', 'kill -9 mid-turn: the file ends at the prompt, no Pi runs in the folder', row);
  });

  it('Title (§ providers): /name names the session: the row takes the name (session_info), not the first prompt', async () => {
    const lab = await start({ name: 'named', replies: [{ kind: 'text', text: 'Hi.' }] });
    await firstTurnDone(lab);
    lab.tmux.type('/name Badge colours');
    lab.tmux.keys('Enter');
    const row = await lab.expectRow('named', (row) => row.title === 'Badge colours');
    expect(row.observed.state).toBe('idle');
  });
});
