// opencode, the real TUI against the lab's model: what Lookout says at each moment of each
// scenario, checked against what the scenario did.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { opencode } from '../lab/agents/opencode';
import { failedAfterRetries, interruptedByEscapeTwice, killedMidTurn, runningThenFinished, subagentAtWork, subagentReplies } from '../lab/moments';
import { installed, scenarios, suiteName } from '../lab/suite';
import { QUOTA_MESSAGE, limitedUntilHeaderReset, quotaResetReply, usageLimitReply, waitingOutTheLimit } from '../lab/usage-limit';
import { waitFor } from '../../wait';

describe.skipIf(!installed(opencode))(suiteName(opencode), () => {
  const start = scenarios(opencode);
  const shell = opencode.tools.guardedShell('touch lab-made.txt');

  it('R1 running: a held model stream reads running, then finished', async () => {
    await runningThenFinished(await start({ name: 'running', replies: [{ kind: 'hold', text: 'Thinking…' }] }));
  });

  it('R3 a permission prompt without the plugin: the database holds only a running tool, so the row says it may be waiting (unknown)', async () => {
    const lab = await start({
      name: 'approve-nohooks',
      replies: [
        { kind: 'tool', call: shell },
        { kind: 'text', text: 'Made it.' },
      ],
    });
    await lab.prompt('make the file');
    await lab.tmux.waitForScreen('the permission prompt', opencode.asksPermission);
    const row = await lab.expectRow('unknown: a call pending', (row) => row.observed.state === 'unknown');
    expect(row.observed.reason).toBe('tool-pending');
    expect(row.observed.detail ?? '').toContain('touch lab-made.txt');
  });

  it('R8 a permission prompt with the plugin reads awaiting-approval, then approved it runs and finishes', async () => {
    const lab = await start({
      name: 'approve-hooks',
      hooks: true,
      replies: [
        { kind: 'tool', call: shell },
        { kind: 'text', text: 'Made it.' },
      ],
    });
    await lab.prompt('make the file');
    await lab.tmux.waitForScreen('the permission prompt', opencode.asksPermission);
    const asking = await lab.expectRow('awaiting approval', (row) => row.observed.state === 'awaiting-approval');
    expect(asking.observed.confidence).toBe('direct');
    expect(asking.claim?.kind).toBe('needs-you');
    await lab.approve();
    await waitFor('the approved command ran', () => (existsSync(lab.projectFile('lab-made.txt')) ? true : undefined));
    const done = await lab.expectRow('finished', (row) => row.observed.state === 'idle' && row.observed.reason === 'turn-finished');
    expect(done.observed.reason).toBe('turn-finished');
  });

  for (const hooks of [false, true]) {
    it(`R3 a question (the question tool) reads awaiting-input (plugin ${hooks ? 'on' : 'off'})`, async () => {
      const question = opencode.tools.question('Which colour should the badge be?', ['Red', 'Blue']);
      if (question === null) throw new Error('opencode has a question tool');
      const lab = await start({
        name: `question-${String(hooks)}`,
        hooks,
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
  }

  it('R5 a model that keeps failing (401: opencode retries for about 75 s, then gives up) reads error/api-error', async () => {
    const lab = await start({ name: 'error', replies: [{ kind: 'error', status: 401, message: 'lab: bad key' }] });
    lab.record('error', 'a turn that failed after opencode gave up retrying', await failedAfterRetries(lab));
  });

  it("R80 a usage limit (429 insufficient_quota, no retry-after, x-ratelimit-reset-requests 3h): running while opencode backs off by itself (six tries), then limited/usage-limit until the saved header's reset; past it limit-reset; a new prompt runs and finishes", async () => {
    const lab = await start({ name: 'usage-limit', replies: [quotaResetReply(3 * 3600)] });
    await limitedUntilHeaderReset(lab);
  }, 420_000);

  it("R80 an hour's retry-after: opencode waits it out (the screen counts down, nothing saved but the open reply), the row reads running", async () => {
    await waitingOutTheLimit(await start({ name: 'usage-limit-wait', replies: [usageLimitReply()] }));
  });

  it("R80 with the plugin, the wait for the reset is its retry notice: running, with a needs-you claim in opencode's words", async () => {
    const lab = await start({ name: 'usage-limit-wait-hooks', hooks: true, replies: [usageLimitReply()] });
    await waitingOutTheLimit(lab);
    const row = await lab.expectRow('the retry notice', (row) => row.claim?.kind === 'needs-you');
    expect(row.observed.state).toBe('running');
    expect(row.claim?.detail ?? '').toContain(`retrying (attempt 1): ${QUOTA_MESSAGE}`);
  });

  it('R8 an interrupt (Escape twice) mid-turn reads idle/interrupted', async () => {
    const row = await interruptedByEscapeTwice(await start({ name: 'interrupt', replies: [{ kind: 'hold', text: 'A long answer…' }] }));
    expect(row.observed.reason).toBe('interrupted');
  });

  it('R7 killed with kill -9 mid-turn: no process holds its database for writing any more, the row reads ended', async () => {
    const lab = await start({ name: 'kill', replies: [{ kind: 'hold', text: 'Busy…' }] });
    const row = await killedMidTurn(lab);
    expect(row.observed.source).toBe('opencode.db-writer');
    lab.record('killed', 'kill -9 mid-turn: a turn left open, no process writes the database', row);
  });

  it('R11 a subagent (task) at work reads running', async () => {
    const subagent = opencode.tools.subagent('Look around', 'List the files here.');
    if (subagent === null) throw new Error('opencode has subagents');
    await subagentAtWork(await start({ name: 'subagent', replies: subagentReplies(subagent) }));
  });
});
