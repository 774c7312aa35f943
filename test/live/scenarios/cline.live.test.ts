// Cline CLI, the real terminal UI against the lab's model: what Lookout says at each moment, read
// from the CLI's own session status, its saved messages and its hub's event log (issue 24).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentLab } from '../lab/agents/agent';
import { cline, clineData } from '../lab/agents/cline';
import type { LabHome } from '../lab/home';
import { failedAfterRetries, killedMidTurn, runningThenFinished } from '../lab/moments';
import type { Scenario } from '../lab/scenario';
import { LAB_MODULES } from '../lab/scenario';
import { installed, scenarios, suiteName } from '../lab/suite';
import { waitFor } from '../../wait';

/** Ctrl+C twice at an empty prompt: the terminal UI exits and prints how to continue. */
async function quitTerminal(lab: Scenario): Promise<void> {
  await waitFor(
    'the terminal UI gone',
    async () => {
      if (lab.tmux.paneDead()) return true;
      lab.tmux.keys('C-c');
      return await lab.tmux
        .waitForScreen('exited', () => lab.tmux.paneDead(), 3_000)
        .then(
          () => true,
          () => undefined,
        );
    },
    () => lab.tmux.screen(),
  );
}

/** The same terminal UI started again in the scenario's pane (its hub, if any, still running). */
async function restartTerminal(lab: Scenario): Promise<void> {
  const binary = cline.binary(LAB_MODULES);
  if (binary === null) throw new Error('Cline CLI is not installed');
  execFileSync('tmux', ['-L', lab.tmux.socket, 'respawn-pane', '-k', '-t', 'lab', '-c', lab.home.project, '--', binary, ...cline.args], { env: lab.agentEnv });
  await lab.tmux.waitForScreen('the prompt box', cline.ready);
}

/** Where the CLINE_DIR scenario keeps Cline's folder: not ~/.cline, so the default would miss it. */
const elsewhere = (home: LabHome): string => join(home.home, 'cline-elsewhere');

/** Cline with only CLINE_DIR set (the CLI then uses $CLINE_DIR/data), its seeds moved there. */
const clineDirOnly: AgentLab = {
  ...cline,
  prepare(home, model) {
    const { CLINE_DATA_DIR: _data, ...rest } = cline.prepare(home, model);
    mkdirSync(elsewhere(home), { recursive: true });
    renameSync(clineData(home), join(elsewhere(home), 'data'));
    return { ...rest, CLINE_DIR: elsewhere(home) };
  },
  recorded: [],
};

describe.skipIf(!installed(cline))(suiteName(cline), () => {
  const start = scenarios(cline);
  const startDirOnly = scenarios(clineDirOnly);

  it('only CLINE_DIR set: the session in $CLINE_DIR/data is read, running then finished', async () => {
    const lab = await startDirOnly({ name: 'cline-dir', replies: [{ kind: 'hold', text: 'Thinking…' }] });
    expect(lab.agentEnv.CLINE_DATA_DIR).toBeUndefined();
    await runningThenFinished(lab);
    expect(existsSync(join(elsewhere(lab.home), 'data', 'db', 'sessions.db'))).toBe(true);
    expect(existsSync(clineData(lab.home))).toBe(false);
  });

  it('R1 running: a held model stream reads running (its own status, direct), then finished', async () => {
    await runningThenFinished(await start({ name: 'running', replies: [{ kind: 'hold', text: 'Thinking…' }] }));
  });

  it('R8 an approval prompt: status pending reads awaiting-approval (direct), naming the command; approved, it runs and finishes', async () => {
    const lab = await start({
      name: 'approve',
      replies: [
        { kind: 'tool', call: cline.tools.guardedShell('touch cline-made.txt') },
        { kind: 'text', text: 'Made it.' },
      ],
    });
    await lab.prompt('make the file');
    await lab.tmux.waitForScreen('the permission prompt', cline.asksPermission);
    const row = await lab.expectRow('awaiting approval', (row) => row.observed.state === 'awaiting-approval');
    expect(row.observed.reason).toBe('approval-requested');
    expect(row.observed.confidence).toBe('direct');
    expect(row.observed.source).toBe('cline.sessions-db');
    expect(row.observed.detail ?? '').toContain('touch cline-made.txt');
    expect(row.claim?.kind).toBe('needs-you');
    expect(row.answer?.state ?? null).not.toBe('open');
    lab.record('approval', 'status pending while "Cline needs permission" is on screen', row);
    await lab.approve();
    await waitFor(
      'the approved command ran',
      () => (existsSync(lab.projectFile('cline-made.txt')) ? true : undefined),
      () => lab.tmux.screen(),
    );
    await lab.expectRow('finished', (row) => row.observed.state === 'idle' && row.observed.reason === 'turn-finished');
  });

  it('R3 a question (ask_question) reads awaiting-input though the CLI says running', async () => {
    const question = cline.tools.question('Which colour should the badge be?', ['Red', 'Blue']);
    if (question === null) throw new Error('Cline CLI has a question tool');
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
    expect(row.observed.reason).toBe('question-pending');
    expect(row.observed.detail ?? '').toContain('Which colour');
    expect(row.claim?.kind).toBe('needs-you');
    lab.record('question', 'ask_question on screen (status running, the question pending in the messages)', row);
    lab.tmux.keys('Enter');
    await lab.expectRow('finished', (row) => row.observed.state === 'idle' && row.observed.reason === 'turn-finished');
  });

  it('R11 a subagent (spawn_agent, approved) at work reads running, then finished', async () => {
    const subagent = cline.tools.subagent('Look around', 'List the files here.');
    if (subagent === null) throw new Error('Cline CLI has subagents');
    const lab = await start({
      name: 'subagent',
      replies: [
        { kind: 'tool', call: subagent },
        { kind: 'hold', text: 'Subagent looking…' },
        { kind: 'text', text: 'Nothing here.' },
      ],
    });
    await lab.prompt('use a subagent');
    await lab.tmux.waitForScreen('the permission prompt', cline.asksPermission);
    await lab.approve();
    await lab.held();
    const row = await lab.expectRow('running with its subagent', (row) => row.observed.state === 'running' || row.observed.state === 'running-subagents');
    expect(JSON.stringify(row.children)).toContain('working');
    await lab.releaseHold();
    await lab.expectRow('finished', (row) => row.observed.state === 'idle' && row.observed.reason === 'turn-finished');
  });

  it('R5 a model that keeps failing (401) reads error/api-error from the error the CLI saves', async () => {
    const lab = await start({ name: 'error', replies: [{ kind: 'error', status: 401, message: 'lab: bad key' }] });
    const row = await failedAfterRetries(lab);
    expect(row.observed.detail ?? '').toContain('lab: bad key');
    lab.record('error', 'a turn that failed: the CLI saved the error as a message and went idle', row);
  });

  it('R8 an interrupt (Escape) mid-stream reads idle/interrupted: idle with the prompt unanswered', async () => {
    const lab = await start({ name: 'interrupt', replies: [{ kind: 'hold', text: 'A long answer…' }] });
    await lab.prompt('a long job');
    await lab.held();
    await lab.expectRow('running', (row) => row.observed.state === 'running');
    await waitFor(
      'the stream cancelled',
      async () => {
        lab.tmux.keys('Escape');
        return await waitFor(
          'the model stream closed',
          () => (lab.model.openHolds === 0 ? true : undefined),
          () => '',
          { timeout: 3_000 },
        ).catch(() => undefined);
      },
      () => lab.tmux.screen(),
    );
    const row = await lab.expectRow('interrupted', (row) => row.observed.state === 'idle');
    expect(row.observed.reason).toBe('interrupted');
    lab.record('interrupted', 'Escape mid-stream: status idle, the prompt saved unanswered', row);
  });

  it("R7 killed with kill -9 mid-turn: the session's process is gone, the row reads ended", async () => {
    const lab = await start({ name: 'kill', replies: [{ kind: 'hold', text: 'Busy…' }] });
    const row = await killedMidTurn(lab);
    lab.record('killed', 'kill -9 mid-turn: status running, its process gone', row);
  });

  it('R5 a headless run (`cline "…"`) that completed reads idle/turn-finished', async () => {
    const lab = await start({ name: 'headless', replies: [{ kind: 'text', text: 'Hello from the lab.' }] });
    const binary = cline.binary(LAB_MODULES);
    if (binary === null) throw new Error('Cline CLI is not installed');
    // Asynchronously: the lab's model answers from this very process. No stdin: it would be read as more prompt.
    const run = await new Promise<{ code: number | null; output: string }>((resolve, reject) => {
      const child = spawn(binary, ['say hi please'], { cwd: lab.home.project, env: lab.agentEnv, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      child.on('error', reject);
      child.on('exit', (code) => resolve({ code, output }));
    });
    expect(run.output).toContain('Hello from the lab.');
    expect(run.code).toBe(0);
    // The terminal UI left at its empty prompt is no row: only the headless run is.
    const row = await lab.expectRow('finished', (row) => row.observed.state === 'idle');
    expect(row.observed.reason).toBe('turn-finished');
    expect(row.title).toBe('say hi please');
  });

  it('R7 a session hosted by the hub: idle while its terminal is attached, ended once the terminal quits (the hub and the status stay)', async () => {
    const lab = await start({ name: 'hub', replies: [{ kind: 'text', text: 'Hello from the lab.' }] });
    // The first terminal starts the hub; the next one's session runs in it (the usual case).
    await waitFor(
      'the hub running',
      () => (cline.daemonPids(lab.home).length > 0 ? true : undefined),
      () => lab.tmux.screen(),
    );
    await quitTerminal(lab);
    await restartTerminal(lab);
    await lab.prompt('say hello');
    const idle = await lab.expectRow('finished, attached', (row) => row.observed.state === 'idle');
    expect(idle.observed.reason).toBe('turn-finished');
    await quitTerminal(lab);
    const ended = await lab.expectRow('ended', (row) => row.observed.state === 'ended', 30_000);
    expect(ended.observed.reason).toBe('process-gone');
    expect(ended.observed.source).toBe('cline.hub-events');
    expect(cline.daemonPids(lab.home).length).toBeGreaterThan(0);
  });

  it("R80 a usage limit (429, retry-after, insufficient_quota): running while Cline retries; then its saved error is the provider's words alone, so error/api-error, not limited", async () => {
    const lab = await start({
      name: 'limit',
      replies: [{ kind: 'quota', retryAfter: 3600, message: 'You exceeded your current quota, please check your plan and billing details.' }],
    });
    await lab.prompt('this will hit the limit');
    await waitFor(
      'Cline retried',
      () => (lab.model.mainRequests.length >= 2 ? true : undefined),
      () => lab.tmux.screen(),
      { timeout: 120_000 },
    );
    await lab.expectRow('running while it retries', (row) => row.observed.state === 'running');
    // 3.0.65 saves `{displayRole: "error"}` with the provider's message as its only text: no status, no kind.
    const row = await lab.expectRow('error once it gives up', (row) => row.observed.state === 'error', 240_000);
    expect(row.observed.reason).toBe('api-error');
    expect(row.observed.detail ?? '').toContain('exceeded your current quota');
  });
});
