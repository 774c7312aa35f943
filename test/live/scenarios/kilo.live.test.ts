// Kilo CLI (opencode's fork), the real TUI against the lab's model: read by opencode's reader from
// Kilo's own database (issue 24).
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { kilo } from '../lab/agents/kilo';
import { failedAfterRetries, interruptedByEscapeTwice, killedMidTurn, runningThenFinished } from '../lab/moments';
import { installed, scenarios, suiteName } from '../lab/suite';
import { limitedUntilHeaderReset, quotaResetReply, usageLimitReply, waitingOutTheLimit } from '../lab/usage-limit';
import { waitFor } from '../../wait';
import { answerWhenDue } from '../lab/answering';

describe.skipIf(!installed(kilo))(suiteName(kilo), () => {
  const start = scenarios(kilo);

  it('R1 running: a held model stream reads running, then finished', async () => {
    await runningThenFinished(await start({ name: 'running', replies: [{ kind: 'hold', text: 'Thinking…' }] }));
  });

  it('R3 a permission prompt (no plugin): a call pending reads "may be waiting" (unknown), never running or idle; approved, it runs and finishes', async () => {
    const lab = await start({
      name: 'approve',
      replies: [
        { kind: 'tool', call: kilo.tools.guardedShell('touch kilo-made.txt') },
        { kind: 'text', text: 'Made it.' },
      ],
    });
    await lab.prompt('make the file');
    await lab.tmux.waitForScreen('the permission prompt', kilo.asksPermission);
    const row = await lab.expectRow('unknown: a call pending', (row) => row.observed.state === 'unknown');
    expect(row.observed.reason).toBe('tool-pending');
    expect(row.observed.detail ?? '').toContain('touch kilo-made.txt');
    expect(row.observed.source).toBe('kilo.db');
    await lab.approve();
    await waitFor('the approved command ran', () => (existsSync(lab.projectFile('kilo-made.txt')) ? true : undefined));
    await lab.expectRow('finished', (row) => row.observed.state === 'idle' && row.observed.reason === 'turn-finished');
  });

  it("R8 with Lookout's plugin a permission prompt reads awaiting-approval; R70 allowed with `lookout answer`, it runs", async () => {
    const lab = await start({
      name: 'answer',
      hooks: true,
      watch: true,
      replies: [
        { kind: 'tool', call: kilo.tools.guardedShell('touch kilo-allowed.txt') },
        { kind: 'text', text: 'Made it.' },
      ],
    });
    await lab.prompt('make the file');
    await lab.tmux.waitForScreen('the permission prompt', kilo.asksPermission);
    const row = await lab.expectRow('awaiting approval, answerable', (row) => row.observed.state === 'awaiting-approval' && row.answer?.state === 'open');
    expect(row.observed.confidence).toBe('direct');
    expect(row.answer?.state === 'open' ? row.answer.text : '').toContain('touch kilo-allowed.txt');
    await answerWhenDue(lab, row, 'allow');
    await waitFor(
      'the allowed command ran',
      () => (existsSync(lab.projectFile('kilo-allowed.txt')) ? true : undefined),
      () => lab.tmux.screen(),
    );
    const done = await lab.expectRow('finished', (row) => row.observed.state === 'idle' && row.observed.reason === 'turn-finished');
    expect(lab.explain(done)).toMatch(/allowed from cli — req_[0-9a-f]+ \(bash: touch kilo-allowed\.txt/);
  });

  it('R3 a question (the question tool) reads awaiting-input', async () => {
    const question = kilo.tools.question('Which colour should the badge be?', ['Red', 'Blue']);
    if (question === null) throw new Error('Kilo has a question tool');
    const lab = await start({
      name: 'question',
      replies: [
        { kind: 'tool', call: question },
        { kind: 'text', text: 'Blue it is.' },
      ],
    });
    await lab.prompt('ask me a question');
    await lab.tmux.waitForScreen('the question', (screen) => screen.includes('Which colour should the badge be?'));
    const row = await lab.expectRow('awaiting input', (row) => row.observed.state === 'awaiting-input');
    expect(row.claim?.kind).toBe('needs-you');
  });

  it('R5 a model that keeps failing (401: retried, then given up) reads error/api-error', async () => {
    const lab = await start({ name: 'error', replies: [{ kind: 'error', status: 401, message: 'lab: bad key' }] });
    lab.record('error', 'a turn that failed after Kilo gave up retrying', await failedAfterRetries(lab));
  });

  it("R80 a usage limit (429 insufficient_quota, no retry-after, x-ratelimit-reset-requests 3h): running while Kilo backs off by itself (six tries), then limited/usage-limit until the saved header's reset; past it limit-reset; a new prompt runs and finishes", async () => {
    const lab = await start({ name: 'usage-limit', replies: [quotaResetReply(3 * 3600)] });
    await limitedUntilHeaderReset(lab);
  }, 420_000);

  it("R80 an hour's retry-after: Kilo waits it out (the screen counts down, nothing saved but the open reply), the row reads running", async () => {
    await waitingOutTheLimit(await start({ name: 'usage-limit-wait', replies: [usageLimitReply()] }));
  });

  it('R8 an interrupt (Escape twice) mid-turn reads idle/interrupted', async () => {
    const lab = await start({ name: 'interrupt', replies: [{ kind: 'hold', text: 'A long answer…' }] });
    lab.record('interrupted', 'Escape twice mid-stream', await interruptedByEscapeTwice(lab));
  });

  it('R7 killed with kill -9 mid-turn: no process holds its database for writing any more, the row reads ended', async () => {
    const lab = await start({ name: 'kill', replies: [{ kind: 'hold', text: 'Busy…' }] });
    const row = await killedMidTurn(lab);
    expect(row.observed.source).toBe('kilo.db-writer');
    lab.record('killed', 'kill -9 mid-turn: a turn left open, no process writes the database', row);
  });
});
