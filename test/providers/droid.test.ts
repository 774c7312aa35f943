// Factory Droid read passively (issue 24): its session JSONL in the shapes 0.225.2 wrote on this
// machine (shared/real-samples/generated/droid, read where they lie; the lab's recordings), and
// endings the lab cannot drive written here in the same shapes (the outcome reasons are the
// binary's own enum). Liveness: the folders Droid processes run in, a stand-in set here.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Row } from '../../src/engine';
import { defaultSettings, emptyFacts, evaluate } from '../../src/engine';
import { DroidProvider } from '../../src/providers/droid/provider';
import { droidProcessKind } from '../../src/providers/droid/processes';
import { sessionMode } from '../../src/providers/droid/session-settings';
import { droidToolDetail } from '../../src/providers/droid/tools';

const base = mkdtempSync(join(tmpdir(), 'lookout-droid-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const T0 = Date.parse('2026-12-01T13:37:16.000Z');
const iso = (seconds: number): string => new Date(T0 + seconds * 1000).toISOString();
const CWD = '/home/me/app';

const START = (id: string, title = 'make the file') =>
  JSON.stringify({ type: 'session_start', id, title, owner: 'unknown', version: 2, cwd: CWD, hostId: 'h', isSessionTitleManuallySet: false });
/** The injected context Droid writes before each first prompt: never a prompt, never the title. */
const CONTEXT = (turn: string, seconds: number) =>
  JSON.stringify({
    type: 'message',
    id: `context-${turn}`,
    timestamp: iso(seconds),
    message: { role: 'user', content: [{ type: 'text', text: '<system-reminder>\nDeferred tools:\nWebSearch\n</system-reminder>' }], visibility: 'llm_only' },
  });
const PROMPT = (turn: string, seconds: number, text = 'make the file') =>
  JSON.stringify({
    type: 'message',
    id: turn,
    parentId: `context-${turn}`,
    timestamp: iso(seconds),
    message: { role: 'user', content: [{ type: 'text', text }], interactionMode: 'auto' },
  });
const TOOL = (seconds: number, id: string, name: string, input: Record<string, unknown>) =>
  JSON.stringify({
    type: 'message',
    id: `a-${id}`,
    timestamp: iso(seconds),
    message: { role: 'assistant', content: [{ type: 'tool_use', id, name, input }], modelId: 'custom:fake-model-0' },
  });
const RESULT = (seconds: number, id: string) =>
  JSON.stringify({
    type: 'message',
    id: `r-${id}`,
    timestamp: iso(seconds),
    message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, is_error: false, content: 'Command completed successfully' }] },
  });
const TEXT = (seconds: number, text = 'Made it.') =>
  JSON.stringify({ type: 'message', id: `t-${seconds}`, timestamp: iso(seconds), message: { role: 'assistant', content: [{ type: 'text', text }] } });
const NOTICE = (seconds: number, text: string) =>
  JSON.stringify({
    type: 'message',
    id: `n-${seconds}`,
    timestamp: iso(seconds),
    message: { role: 'user', content: [{ type: 'text', text }], visibility: 'user_only' },
  });
const OUTCOME = (turn: string, reason: string) => JSON.stringify({ type: 'agent_turn_outcome', turnId: turn, reason, resultKind: 'text' });
const SHELL = { summary: 'x', command: 'touch droid-made.txt', riskLevelReason: 'x', riskLevel: 'low' };

let n = 0;
/** A Droid home (~/.factory) with one session per entry: its lines and, optionally, its settings file. */
function root(sessions: { id?: string; lines: (id: string) => string[]; settings?: Record<string, unknown> }[]): { root: string; ids: string[] } {
  n += 1;
  const folder = join(base, `factory-${n}`);
  const project = join(folder, 'sessions', '-home-me-app');
  mkdirSync(project, { recursive: true });
  const ids = sessions.map((session, index) => {
    const id = session.id ?? `0000000${n}-0000-4000-8000-00000000000${index}`;
    writeFileSync(join(project, `${id}.jsonl`), `${session.lines(id).join('\n')}\n`);
    if (session.settings !== undefined) writeFileSync(join(project, `${id}.settings.json`), JSON.stringify(session.settings, null, 2));
    return id;
  });
  return { root: folder, ids };
}

/** Droid runs in the session's folder (a folder that exists, as the kernel names it). */
const RUNNING = (): Set<string> => new Set([realpathSync(base)]);
const NONE_RUNNING = (): Set<string> => new Set();
const UNKNOWABLE = (): null => null;

async function rows(folder: string, seconds: number, running: () => Set<string> | null = UNKNOWABLE): Promise<Row[]> {
  const now = T0 + seconds * 1000;
  const evidence = await new DroidProvider(folder, undefined, undefined, running).sync(now);
  return evaluate({ sessions: evidence, facts: emptyFacts(), settings: defaultSettings(), now, onScreen: null }).snapshot.sessions;
}

async function rowOf(folder: string, seconds: number, running?: () => Set<string> | null): Promise<Row> {
  const [row] = await rows(folder, seconds, running);
  if (row === undefined) throw new Error('no row');
  return row;
}

const turn = (id: string, ...rest: string[]) => [START(id), CONTEXT('p1', 0), PROMPT('p1', 0.1), ...rest];

describe('Factory Droid, read from its session files', () => {
  it('R1 a prompt opens a turn (running); the injected context is neither the prompt nor the title; the outcome "completed" finishes it', async () => {
    const open = root([{ lines: (id) => turn(id) }]);
    expect(await rowOf(open.root, 2)).toMatchObject({
      key: `droid:${open.ids[0]}`,
      title: 'make the file',
      cwd: CWD,
      observed: { state: 'running', reason: 'turn-open', source: 'droid.session' },
    });
    const done = root([{ lines: (id) => turn(id, TEXT(1), OUTCOME('p1', 'completed')) }]);
    // The outcome has no time of its own: the turn ended with its last record.
    expect((await rowOf(done.root, 5)).observed).toMatchObject({ state: 'idle', reason: 'turn-finished', at: iso(1) });
  });

  it('assistant text alone does not end a turn: Droid says when it does (the outcome), so text stays running until then', async () => {
    const { root: folder } = root([{ lines: (id) => turn(id, TEXT(1)) }]);
    expect((await rowOf(folder, 60)).observed).toMatchObject({ state: 'running', reason: 'turn-open' });
  });

  it('R3 in the TUI a pending call is running, then only "may be waiting" past the grace; its result answers it', async () => {
    const { root: folder } = root([{ lines: (id) => turn(id, TOOL(1, 'c1', 'Execute', SHELL)) }]);
    expect((await rowOf(folder, 3)).observed).toMatchObject({ state: 'running', reason: 'tool-running' });
    const later = await rowOf(folder, 30);
    expect(later.observed).toMatchObject({ state: 'unknown', reason: 'tool-pending', detail: 'Execute: touch droid-made.txt' });
    expect(later.claim?.ambiguous).toBe(true);
    const answered = root([{ lines: (id) => turn(id, TOOL(1, 'c1', 'Execute', SHELL), RESULT(2, 'c1')) }]);
    expect((await rowOf(answered.root, 30)).observed).toMatchObject({ state: 'running', reason: 'turn-open' });
  });

  it('R3 a session run by `droid exec` (tag "exec") cannot wait for approval: its pending call reads running past the grace', async () => {
    const { root: folder } = root([
      {
        lines: (id) => turn(id, TOOL(1, 'c1', 'Execute', { ...SHELL, command: 'sleep 12' })),
        settings: { autonomyMode: 'auto-low', tags: [{ name: 'exec' }] },
      },
    ]);
    const row = await rowOf(folder, 30);
    expect(row.observed).toMatchObject({ state: 'running', reason: 'tool-running', detail: 'Execute: sleep 12' });
    expect(row.claim).toBeNull();
  });

  it('R3 AskUser is a question, ExitSpecMode a spec to accept, Task a subagent at work', async () => {
    const ask = root([{ lines: (id) => turn(id, TOOL(1, 'q1', 'AskUser', { questionnaire: '1. [question] Which colour?\n[topic] Badge\n[option] Red' })) }]);
    expect((await rowOf(ask.root, 30)).observed).toMatchObject({
      state: 'awaiting-input',
      reason: 'question-pending',
      detail: 'asks: 1. [question] Which colour?',
    });
    const spec = root([{ lines: (id) => turn(id, TOOL(1, 's1', 'ExitSpecMode', { plan: '# Plan' })) }]);
    expect((await rowOf(spec.root, 30)).observed).toMatchObject({
      state: 'awaiting-input',
      reason: 'plan-approval-pending',
      detail: 'spec ready for approval',
    });
    const task = root([{ lines: (id) => turn(id, TOOL(1, 't1', 'Task', { description: 'Find the tests', prompt: 'look' })) }]);
    expect((await rowOf(task.root, 30)).observed).toMatchObject({ state: 'running', reason: 'tool-running' });
  });

  it('R8 the outcomes the binary names: cancelled, process_exit and permission_rejected are interrupts; spec_handoff finishes', async () => {
    for (const reason of ['cancelled', 'process_exit', 'permission_rejected']) {
      const { root: folder } = root([{ lines: (id) => turn(id, OUTCOME('p1', reason)) }]);
      expect((await rowOf(folder, 5)).observed, reason).toMatchObject({ state: 'idle', reason: 'interrupted' });
    }
    const handoff = root([{ lines: (id) => turn(id, TEXT(1), OUTCOME('p1', 'spec_handoff')) }]);
    expect((await rowOf(handoff.root, 5)).observed).toMatchObject({ state: 'idle', reason: 'turn-finished' });
  });

  it('R5 a failed outcome is an error named by the message Droid showed (user_only), which is never a prompt; an unknown reason fails too, so the user looks', async () => {
    const limited = root([
      { lines: (id) => turn(id, NOTICE(85, 'BYOK Error: 429 slow down\n\nUpstream error: slow down'), OUTCOME('p1', 'model_rate_limited')) },
    ]);
    const row = await rowOf(limited.root, 90);
    expect(row.observed).toMatchObject({ state: 'error', reason: 'api-error', detail: 'BYOK Error: 429 slow down', at: iso(85) });
    expect(row.claim?.kind).toBe('failed');
    expect(row.title).toBe('make the file');
    const quiet = root([{ lines: (id) => turn(id, OUTCOME('p1', 'model_provider_unreachable')) }]);
    expect((await rowOf(quiet.root, 5)).observed.detail).toBe('the model provider could not be reached');
    const unknown = root([{ lines: (id) => turn(id, TEXT(1), OUTCOME('p1', 'budget_exceeded')) }]);
    expect((await rowOf(unknown.root, 5)).observed).toMatchObject({ state: 'error', detail: 'Droid ended the turn: budget_exceeded' });
  });

  it("R80 a usage limit: a 429 given up on whose saved words say the quota is spent, or Droid's own model_usage_exhausted (a 402), reads limited with no reset time (Droid saves no headers)", async () => {
    const quota =
      'BYOK Error: 429 You exceeded your current quota, please check your plan and billing details.\n\nUpstream error: You exceeded your current quota, please check your plan and billing details.';
    const spent = root([{ lines: (id) => turn(id, NOTICE(90, quota), OUTCOME('p1', 'model_rate_limited')) }]);
    const row = await rowOf(spent.root, 95);
    expect(row.observed).toMatchObject({
      state: 'limited',
      reason: 'usage-limit',
      detail: 'BYOK Error: 429 You exceeded your current quota, please check your plan and billing details.',
      at: iso(90),
    });
    const [evidence] = await new DroidProvider(spent.root, undefined, undefined, UNKNOWABLE).sync(T0 + 95_000);
    expect(evidence?.signal).toMatchObject({ kind: 'usage-limit', resetsAt: null });
    const exhausted = root([{ lines: (id) => turn(id, OUTCOME('p1', 'model_usage_exhausted')) }]);
    expect((await rowOf(exhausted.root, 5)).observed).toMatchObject({
      state: 'limited',
      reason: 'usage-limit',
      detail: 'usage is exhausted for the model request',
    });
  });

  it("R80 only Droid's own error counts: the same words typed by the user or in a tool's output, with a plain rate limit or a finished turn, are no limit", async () => {
    const words = 'You exceeded your current quota (insufficient_quota)';
    const typed = root([
      {
        lines: (id) => [
          START(id),
          CONTEXT('p1', 0),
          PROMPT('p1', 0.1, words),
          TOOL(1, 'c1', 'Execute', SHELL),
          JSON.stringify({
            type: 'message',
            id: 'r-c1',
            timestamp: iso(2),
            message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'c1', is_error: true, content: words }] },
          }),
          NOTICE(80, 'BYOK Error: 429 slow down'),
          OUTCOME('p1', 'model_rate_limited'),
        ],
      },
    ]);
    expect((await rowOf(typed.root, 85)).observed).toMatchObject({ state: 'error', reason: 'api-error', detail: 'BYOK Error: 429 slow down' });
    const finished = root([{ lines: (id) => turn(id, TEXT(1, words), OUTCOME('p1', 'completed')) }]);
    expect((await rowOf(finished.root, 5)).observed).toMatchObject({ state: 'idle', reason: 'turn-finished' });
  });

  it('an outcome naming an earlier turn leaves the open one open', async () => {
    const { root: folder } = root([
      { lines: (id) => [...turn(id, TEXT(1), OUTCOME('p1', 'completed')), PROMPT('p2', 10, 'and now'), OUTCOME('p1', 'completed')] },
    ]);
    expect((await rowOf(folder, 12)).observed).toMatchObject({ state: 'running', reason: 'turn-open' });
  });

  it('R7 a turn left open where no Droid runs (killed, Ctrl-C: nothing written) reads ended; with Droid there, running; a finished turn is not judged', async () => {
    const { root: folder } = root([{ lines: (id) => turn(id) }]);
    expect((await rowOf(folder, 2, NONE_RUNNING)).observed).toMatchObject({ state: 'ended', reason: 'process-gone', source: 'droid.process' });
    const here = root([{ lines: (id) => [START(id).replace(CWD, realpathSync(base)), CONTEXT('p1', 0), PROMPT('p1', 0.1)] }]);
    expect((await rowOf(here.root, 2, RUNNING)).observed).toMatchObject({ state: 'running' });
    // Where the processes cannot be told (no /proc, a `droid daemon` running): not judged, R4 ages it.
    expect((await rowOf(folder, 31 * 60, UNKNOWABLE)).observed).toMatchObject({ state: 'unknown', reason: 'stale-evidence' });
    const done = root([{ lines: (id) => turn(id, TEXT(1), OUTCOME('p1', 'completed')) }]);
    expect((await rowOf(done.root, 5, NONE_RUNNING)).observed.state).toBe('idle');
  });

  it('R10 a subagent\'s session (tag "subagent" naming its caller) is the caller\'s child, never a row', async () => {
    const lead = '11111111-0000-4000-8000-000000000001';
    const { root: folder } = root([
      { id: lead, lines: (id) => turn(id, TOOL(1, 't1', 'Task', { description: 'Find the tests' })) },
      {
        lines: (id) => [START(id, 'Find the tests'), PROMPT('s1', 2, 'look around'), TEXT(3, 'Looking…')],
        settings: { tags: [{ name: 'subagent', metadata: { callingSessionId: lead, callingToolUseId: 't1' } }] },
      },
    ]);
    const all = await rows(folder, 30);
    expect(all.map((row) => row.key)).toEqual([`droid:${lead}`]);
    expect(all[0]?.children.live).toBe(1);
  });

  it('a placeholder title gives way to the first prompt; a malformed line in the turn is counted; appends are read incrementally', async () => {
    const { root: folder, ids } = root([{ lines: (id) => [START(id, 'New Session'), CONTEXT('p1', 0), PROMPT('p1', 0.1, 'fix the login'), 'not json'] }]);
    const provider = new DroidProvider(folder, undefined, undefined, UNKNOWABLE);
    const first = await provider.sync(T0 + 2000);
    expect(first[0]).toMatchObject({ title: 'fix the login', skippedLines: 1, signal: { kind: 'prompt' } });
    expect(await provider.sync(T0 + 2000)).toBe(first);
    writeFileSync(join(folder, 'sessions', '-home-me-app', `${ids[0] ?? ''}.jsonl`), `${TEXT(3)}\n${OUTCOME('p1', 'completed')}\n`, { flag: 'a' });
    expect((await provider.sync(T0 + 5000))[0]?.signal).toMatchObject({ kind: 'turn-end', failed: false });
  });
});

describe("Droid's folder, hostile", () => {
  it('a FIFO where a settings file belongs is never opened (no hang), a symlinked transcript is not followed, and the session still reads', async () => {
    const { root: folder, ids } = root([{ lines: (id) => turn(id, TEXT(1), OUTCOME('p1', 'completed')) }]);
    const sessions = join(folder, 'sessions', '-home-me-app');
    expect(spawnSync('mkfifo', [join(sessions, `${ids[0] ?? ''}.settings.json`)]).status).toBe(0);
    symlinkSync(join(sessions, `${ids[0] ?? ''}.jsonl`), join(sessions, 'ffffffff-0000-4000-8000-000000000000.jsonl'));
    const provider = new DroidProvider(folder, undefined, undefined, UNKNOWABLE);
    const evidence = await provider.sync(T0 + 5000);
    expect(evidence.map((item) => item.sessionId)).toEqual(ids);
    expect(provider.problems.drain().map((problem) => problem.detail)).toEqual(['ENOTREG']);
  });
});

describe("Droid's small readers", () => {
  it("the settings file's tags: exec, subagent and its caller; anything unreadable says nothing", () => {
    expect(sessionMode(JSON.stringify({ tags: [{ name: 'exec' }] }))).toEqual({ exec: true, callingSessionId: null });
    expect(sessionMode(JSON.stringify({ tags: [{ name: 'subagent', metadata: { callingSessionId: 'abc' } }] }))).toEqual({
      exec: false,
      callingSessionId: 'abc',
    });
    expect(sessionMode('{"tags": [')).toEqual({ exec: false, callingSessionId: null });
  });

  it("which processes are Droid's: the binary, the npm wrapper's script; a daemon hides its sessions' folders", () => {
    expect(droidProcessKind(['/opt/node_modules/@factory/cli-linux-x64/bin/droid', 'exec', '-m', 'x', 'hi'])).toBe('agent');
    expect(droidProcessKind(['node', '/usr/lib/node_modules/@factory/cli/bin/droid', '--resume', 'abc'])).toBe('agent');
    expect(droidProcessKind(['droid', 'daemon'])).toBe('unknowable');
    expect(droidProcessKind(['/usr/bin/android-studio'])).toBe('other');
    expect(droidProcessKind(['/bin/bash', '-c', 'echo droid'])).toBe('other');
  });

  it('a tool call in words: the command, the file (either spelling), the question', () => {
    expect(droidToolDetail('Execute', SHELL)).toBe('Execute: touch droid-made.txt');
    expect(droidToolDetail('Create', { filePath: '/home/me/app/a.ts', content: 'x' })).toBe('Create: /home/me/app/a.ts');
    expect(droidToolDetail('AskUser', { parsed: { questions: [{ index: 1, topic: 'Badge', question: 'Which colour?', options: ['Red'] }] } })).toBe(
      'asks: Which colour?',
    );
    expect(droidToolDetail('AskUser', {})).toBe('asks a question');
  });
});

const SAMPLES = resolve(__dirname, '../../../shared/real-samples/generated/droid');
const present = existsSync(SAMPLES);
if (!present) console.log(`Droid real-sample tests skipped: ${SAMPLES} is not here`);

describe.skipIf(!present)("Droid 0.225.2's own files (real samples, read where they lie)", () => {
  it('R13 "say hi" and a finished tool call read finished; the ERR run (its file ends at the prompt) reads ended where no Droid runs, and never finished', async () => {
    const at = Date.parse('2026-12-01T13:40:00.000Z');
    const read = async (running: () => Set<string> | null): Promise<Row[]> => {
      const evidence = await new DroidProvider(SAMPLES, undefined, undefined, running).sync(at);
      return evaluate({ sessions: evidence, facts: emptyFacts(), settings: defaultSettings(), now: at, onScreen: null }).snapshot.sessions;
    };
    const byTitle = (list: Row[]) => Object.fromEntries(list.map((row) => [row.title, `${row.observed.state}/${row.observed.reason}`]));
    expect(byTitle(await read(NONE_RUNNING))).toEqual({
      'say hi please': 'idle/turn-finished',
      'do TOOL CMD[touch droid-made.txt]': 'idle/turn-finished',
      'ERR please': 'ended/process-gone',
    });
    // Where nothing can be told of the processes, the open turn is only running (then stale), never finished.
    expect(byTitle(await read(UNKNOWABLE))['ERR please']).toBe('running/turn-open');
    for (const row of await read(NONE_RUNNING)) expect(row.cwd).toBe('/home/dev/scratch/run/droid/proj');
  });
});
