// Cline CLI's session table and saved messages, made by hand: each status the CLI writes, with the
// messages it leaves at that moment, read as the row Lookout must give.
import { afterEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import type { Row } from '../../src/engine';
import { ClineProvider } from '../../src/providers/cline/provider';
import { ClineHome, call, failure, reply, result, rowsOf, user } from './cline-home';

const T = Date.parse('2026-12-01T13:36:00.000Z');
const homes: ClineHome[] = [];

function home(): ClineHome {
  const made = new ClineHome();
  homes.push(made);
  return made;
}

afterEach(() => {
  for (const made of homes.splice(0)) {
    made.close();
    rmSync(join(made.root, '..'), { recursive: true, force: true });
  }
});

async function onlyRow(made: ClineHome, now: number, check?: Parameters<typeof rowsOf>[2]): Promise<Row> {
  const rows = await rowsOf(made.root, now, check);
  expect(rows.map((row) => row.key)).toHaveLength(1);
  return rows[0] as Row;
}

const shell = (ts: number): unknown => call(ts, 'call_1', 'run_commands', { commands: 'touch made.txt' });

describe('Cline CLI: the status the CLI writes, with its messages', () => {
  it('R8 status pending reads awaiting-approval (direct), named by the pending call', async () => {
    const made = home().session({ id: 's1', status: 'pending', updatedAt: T, messages: [user(T - 200, 'make it'), shell(T - 100)] });
    const row = await onlyRow(made, T + 60_000);
    expect([row.observed.state, row.observed.reason, row.observed.confidence, row.observed.source]).toEqual([
      'awaiting-approval',
      'approval-requested',
      'direct',
      'cline.sessions-db',
    ]);
    expect(row.observed.detail).toBe('run_commands: touch made.txt');
    expect(row.claim?.kind).toBe('needs-you');
  });

  it('R3 a question pending while the CLI says running reads awaiting-input (question-pending), never running', async () => {
    const made = home().session({
      id: 's1',
      status: 'running',
      updatedAt: T,
      messages: [user(T - 200, 'ask'), call(T - 100, 'call_q', 'ask_question', { question: 'Which colour?', options: ['Red', 'Blue'] })],
    });
    const row = await onlyRow(made, T + 60_000);
    expect([row.observed.state, row.observed.reason]).toEqual(['awaiting-input', 'question-pending']);
    expect(row.observed.detail).toBe('asks: Which colour?');
  });

  it('R3 status running with a shell call pending reads running/tool-pending (the CLI says it is busy)', async () => {
    const made = home().session({ id: 's1', status: 'running', updatedAt: T, messages: [user(T - 200, 'go'), shell(T - 100)] });
    const row = await onlyRow(made, T + 60_000);
    expect([row.observed.state, row.observed.reason, row.observed.confidence]).toEqual(['running', 'tool-pending', 'direct']);
  });

  it('§11 status running after a settled turn (its prompt not saved yet) reads running, the turn starting at the status change', async () => {
    const made = home().session({ id: 's1', status: 'running', updatedAt: T, messages: [user(T - 9_000, 'first'), reply(T - 8_000, 'Done.')] });
    const source = new ClineProvider(made.root, () => 'alive');
    const [evidence] = await source.sync(T + 1_000);
    source.dispose();
    expect(evidence?.signal).toEqual({ kind: 'prompt', at: T });
    expect(evidence?.turn).toEqual({ startedAt: T, endedAt: null, durationMs: null });
    const row = await onlyRow(made, T + 1_000);
    expect([row.observed.state, row.observed.reason]).toEqual(['running', 'provider-busy']);
  });

  it('status idle after an answer reads idle/turn-finished: the messages say how the turn ended', async () => {
    const made = home().session({
      id: 's1',
      status: 'idle',
      updatedAt: T,
      messages: [user(T - 200, 'go'), shell(T - 150), result(T - 100, 'call_1', 'run_commands'), reply(T - 50, 'All done.')],
    });
    const row = await onlyRow(made, T + 5_000);
    expect([row.observed.state, row.observed.reason, row.observed.source]).toEqual(['idle', 'turn-finished', 'cline.messages']);
  });

  it('R8 status idle with the prompt unanswered (Escape mid-stream) reads idle/interrupted', async () => {
    const made = home().session({
      id: 's1',
      status: 'idle',
      updatedAt: T,
      messages: [user(T - 9_000, 'first'), reply(T - 8_000, 'Done.'), user(T - 4_000, 'a long job')],
    });
    const row = await onlyRow(made, T + 5_000);
    expect([row.observed.state, row.observed.reason]).toEqual(['idle', 'interrupted']);
    expect(row.claim).toBeNull();
  });

  it('R8 status idle with a call unanswered reads idle/interrupted, not "may be waiting"', async () => {
    const made = home().session({ id: 's1', status: 'idle', updatedAt: T, messages: [user(T - 200, 'go'), shell(T - 100)] });
    const row = await onlyRow(made, T + 60_000);
    expect([row.observed.state, row.observed.reason]).toEqual(['idle', 'interrupted']);
  });

  it('R5 status idle after a failed request reads error/api-error with the error the CLI saved', async () => {
    const made = home().session({ id: 's1', status: 'idle', updatedAt: T, messages: [user(T - 60_000, 'go'), failure(T - 10, 'lab: bad key')] });
    const row = await onlyRow(made, T + 5_000);
    expect([row.observed.state, row.observed.reason, row.observed.detail]).toEqual(['error', 'api-error', 'lab: bad key']);
    expect(row.claim?.kind).toBe('failed');
  });

  it('R6 a status Lookout does not know reads unknown/unrecognized-status, naming it', async () => {
    const made = home().session({ id: 's1', status: 'paused', updatedAt: T, messages: [user(T - 200, 'go'), reply(T - 100, 'Done.')] });
    const row = await onlyRow(made, T + 5_000);
    expect([row.observed.state, row.observed.reason, row.observed.detail]).toEqual(['unknown', 'unrecognized-status', 'status "paused"']);
  });

  it('a completed headless run reads idle/turn-finished; one ended with its prompt unanswered, idle/interrupted', async () => {
    const made = home()
      .session({ id: 'done', status: 'completed', updatedAt: T, endedAt: T, exitCode: 0, messages: [user(T - 2_000, 'say hi'), reply(T - 1_000, 'Hi.')] })
      .session({ id: 'cut', status: 'completed', updatedAt: T, endedAt: T, exitCode: 0, messages: [user(T - 2_000, 'say hi')] });
    // Over by their own word: their pids are never asked.
    const rows = await rowsOf(made.root, T + 5_000, () => 'no-process');
    const by = new Map(rows.map((row) => [row.key, [row.observed.state, row.observed.reason]]));
    expect(by.get('cline:done')).toEqual(['idle', 'turn-finished']);
    expect(by.get('cline:cut')).toEqual(['idle', 'interrupted']);
  });

  it('a session the CLI ended as failed (exit 1) reads error; one it marked failed because its process was gone reads ended', async () => {
    const made = home()
      .session({ id: 'failed', status: 'failed', updatedAt: T, endedAt: T, exitCode: 1, messages: [user(T - 2_000, 'go')] })
      .session({
        id: 'gone',
        status: 'failed',
        updatedAt: T,
        endedAt: T,
        exitCode: 1,
        metadata: { title: 'gone', terminal_marker: 'failed_external_process_exit', terminal_marker_at: new Date(T).toISOString(), terminal_marker_pid: 4994 },
        messages: [user(T - 2_000, 'go'), reply(T - 1_000, 'Done.')],
      });
    const rows = await rowsOf(made.root, T + 5_000);
    const by = new Map(rows.map((row) => [row.key, row.observed]));
    expect([by.get('cline:failed')?.state, by.get('cline:failed')?.detail]).toEqual(['error', 'session failed (exit 1)']);
    expect([by.get('cline:gone')?.state, by.get('cline:gone')?.reason, by.get('cline:gone')?.source]).toEqual(['ended', 'process-gone', 'cline.sessions-db']);
  });

  it('R7 a session whose process is gone reads ended, whatever its status; a pid reused by a newer process too', async () => {
    const made = home().session({ id: 's1', status: 'running', updatedAt: T, messages: [user(T - 200, 'go')] });
    const gone = await onlyRow(made, T + 5_000, () => 'no-process');
    expect([gone.observed.state, gone.observed.reason, gone.observed.source]).toEqual(['ended', 'process-gone', 'cline.sessions-db']);
    const reused = await onlyRow(made, T + 5_000, () => 'pid-reused');
    expect([reused.observed.state, reused.observed.reason]).toEqual(['ended', 'process-gone']);
    const source = new ClineProvider(made.root, () => 'pid-reused');
    const [evidence] = await source.sync(T + 5_000);
    source.dispose();
    expect(evidence?.liveness).toMatchObject({ kind: 'dead', why: 'pid-reused', pid: 4242 });
  });

  it('a terminal opened and left without a prompt is no row; one whose first turn streams is', async () => {
    const made = home()
      .session({ id: 'empty', status: 'idle', updatedAt: T, prompt: null, metadata: {}, messages: [] })
      .session({ id: 'quit', status: 'completed', updatedAt: T, endedAt: T, exitCode: 0, prompt: null, metadata: {}, messages: null })
      .session({ id: 'first', status: 'running', updatedAt: T, prompt: null, metadata: {}, messages: [] });
    const rows = await rowsOf(made.root, T + 1_000);
    expect(rows.map((row) => [row.key, row.observed.state])).toEqual([['cline:first', 'running']]);
  });

  it('R11 subagents are children of their session, never rows: a working child keeps the row running', async () => {
    const made = home()
      .session({
        id: 'lead',
        status: 'running',
        updatedAt: T - 5_000,
        messages: [user(T - 9_000, 'use a subagent'), call(T - 8_000, 'call_s', 'spawn_agent', { systemPrompt: 'Help.', task: 'Look for TODOs' })],
      })
      .session({ id: 'lead__agent_1', parentId: 'lead', status: 'running', updatedAt: T - 4_000, prompt: 'Look for TODOs', metadata: {}, messages: [] });
    const row = await onlyRow(made, T);
    expect(row.observed.state).toBe('running');
    expect(row.children).toEqual({ liveness: 'working', live: 1 });
    const source = new ClineProvider(made.root, () => 'alive');
    const [evidence] = await source.sync(T);
    source.dispose();
    expect(evidence?.children.map((child) => [child.id, child.name, child.signal?.kind])).toEqual([['lead__agent_1', 'Look for TODOs', 'progress']]);
  });

  it("the title is the CLI's own, else the prompt without its wrapper; the branch is its git metadata", async () => {
    const made = home()
      .session({
        id: 'titled',
        status: 'idle',
        updatedAt: T,
        metadata: { title: 'Fix the build', git: { branch: 'main' } },
        messages: [user(T - 200, 'fix it'), reply(T - 100, 'Done.')],
      })
      .session({
        id: 'plain',
        status: 'idle',
        updatedAt: T,
        prompt: '<user_input mode="act">say hi please</user_input>',
        metadata: '{not json',
        messages: [user(T - 200, 'say hi please'), reply(T - 100, 'Hi.')],
      });
    const rows = await rowsOf(made.root, T + 5_000);
    const by = new Map(rows.map((row) => [row.key, row]));
    expect([by.get('cline:titled')?.title, by.get('cline:titled')?.branch]).toEqual(['Fix the build', 'main']);
    // Metadata that is not JSON costs the title and branch it would give, not the row.
    expect([by.get('cline:plain')?.title, by.get('cline:plain')?.observed.state]).toEqual(['say hi please', 'idle']);
  });

  it('a messages file caught mid-write is counted as skipped and read again; the last good reading stands meanwhile', async () => {
    const made = home().session({ id: 's1', status: 'idle', updatedAt: T, messages: [user(T - 200, 'go'), reply(T - 100, 'Done.')] });
    const source = new ClineProvider(made.root, () => 'alive');
    const [first] = await source.sync(T + 1_000);
    expect(first?.signal?.kind).toBe('assistant-text');
    const path = join(made.root, 'sessions', 's1', 's1.messages.json');
    writeFileSync(path, '{"version":1,"messages":[{"id":');
    const [broken] = await source.sync(T + 2_000);
    expect([broken?.signal?.kind, broken?.skippedLines]).toEqual(['assistant-text', 1]);
    writeFileSync(
      path,
      JSON.stringify({ updated_at: new Date(T).toISOString(), messages: [user(T - 200, 'go'), reply(T - 100, 'Done.'), user(T - 50, 'more')] }),
    );
    const [fixed] = await source.sync(T + 3_000);
    source.dispose();
    expect([fixed?.skippedLines, fixed?.turn?.startedAt]).toEqual([0, T - 50]);
  });

  it('a messages file that is a FIFO is never opened (no blocking read): the session reads from its status alone', async () => {
    const made = home().session({ id: 's1', status: 'pending', updatedAt: T, messages: null });
    execFileSync('mkfifo', [join(made.root, 'sessions-fifo')]);
    made.session({ id: 's1', status: 'pending', updatedAt: T, messages: null, messagesPath: join(made.root, 'sessions-fifo.messages.json') });
    symlinkSync(join(made.root, 'sessions-fifo'), join(made.root, 'sessions-fifo.messages.json'));
    const source = new ClineProvider(made.root, () => 'alive');
    const [evidence] = await source.sync(T + 1_000);
    expect(evidence?.direct.map((item) => (item.kind === 'registry-status' ? item.status : item.kind))).toEqual(['waiting']);
    expect(source.problems.drain().map((problem) => problem.kind)).toEqual(['unreadable']);
    source.dispose();
  });

  it('a session table that is a symlink is not opened as a database: no rows', async () => {
    const made = home().session({ id: 's1', status: 'idle', updatedAt: T, messages: [user(T - 200, 'go'), reply(T - 100, 'Done.')] });
    const elsewhere = join(made.root, 'db', 'real.db');
    renameSync(join(made.root, 'db', 'sessions.db'), elsewhere);
    symlinkSync(elsewhere, join(made.root, 'db', 'sessions.db'));
    expect(await rowsOf(made.root, T + 1_000)).toEqual([]);
  });
});
