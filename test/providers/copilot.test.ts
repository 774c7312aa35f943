// GitHub Copilot CLI read passively: events.jsonl in the CLI's own shapes (1.0.77/1.0.78, as in
// the Irrlicht recordings and docs/../shared/reference/new-agents.md §2), workspace.yaml and
// inuse.<pid>.lock. Endings the real samples lack are written here in the same shapes. The real
// samples are read where they lie (agent-engram) or, for the recordings whose harness appended a
// teardown `session.shutdown`, copied to a temp folder without that last line.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Row } from '../../src/engine';
import { defaultSettings, emptyFacts, evaluate } from '../../src/engine';
import { parseDocument } from 'yaml';
import { workspaceFields } from '../../src/providers/copilot/workspace';
import { CopilotProvider, lockLiveness } from '../../src/providers/copilot/provider';

const base = mkdtempSync(join(tmpdir(), 'lookout-copilot-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const T0 = Date.parse('2026-08-05T17:00:00.000Z');
const iso = (seconds: number): string => new Date(T0 + seconds * 1000).toISOString();
let n = 0;

/** One event line, in the CLI's envelope. */
function event(type: string, seconds: number, data: Record<string, unknown>, extra: Record<string, unknown> = {}): string {
  n += 1;
  return JSON.stringify({ type, data, id: `e-${n}`, timestamp: iso(seconds), parentId: null, ...extra });
}

const START = (id: string) =>
  event('session.start', 0, {
    sessionId: id,
    version: 1,
    producer: 'copilot-agent',
    copilotVersion: '1.0.78',
    startTime: iso(0),
    context: { cwd: '/home/me/app', branch: 'main' },
    alreadyInUse: false,
  });
const PROMPT = (seconds: number, content = 'add a test') =>
  event('user.message', seconds, { content, transformedContent: content, attachments: [], interactionId: 'i1' });
const TURN_START = (seconds: number, turnId = '0') => event('assistant.turn_start', seconds, { turnId, interactionId: 'i1' });
const MESSAGE = (seconds: number, content: string, tools: { id: string; name: string; command?: string }[] = []) =>
  event('assistant.message', seconds, {
    messageId: `m-${seconds}`,
    content,
    toolRequests: tools.map((tool) => ({ toolCallId: tool.id, name: tool.name, arguments: { command: tool.command }, type: 'function' })),
    interactionId: 'i1',
    turnId: '0',
  });
const TOOL_START = (seconds: number, id: string, name = 'bash', command = 'npm test') =>
  event('tool.execution_start', seconds, { toolCallId: id, toolName: name, arguments: { command } });
const TOOL_DONE = (seconds: number, id: string) =>
  event('tool.execution_complete', seconds, { toolCallId: id, model: 'gpt-5-mini', interactionId: 'i1', success: true, result: { content: 'ok' } });
const TURN_END = (seconds: number, turnId = '0') => event('assistant.turn_end', seconds, { turnId });

/** A COPILOT_HOME with one session folder holding these lines (and optional workspace and locks). */
function home(id: string, lines: string[], extra: { workspace?: string; locks?: number[] } = {}): string {
  const root = join(base, `home-${id}`);
  const folder = join(root, 'session-state', id);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'events.jsonl'), `${lines.join('\n')}\n`);
  if (extra.workspace !== undefined) writeFileSync(join(folder, 'workspace.yaml'), extra.workspace);
  for (const pid of extra.locks ?? []) writeFileSync(join(folder, `inuse.${pid}.lock`), `${pid}\n`);
  return root;
}

async function rowOf(root: string, seconds: number): Promise<Row> {
  const now = T0 + seconds * 1000;
  const evidence = await new CopilotProvider(root).sync(now);
  const row = evaluate({ sessions: evidence, facts: emptyFacts(), settings: defaultSettings(), now, onScreen: null }).snapshot.sessions[0];
  if (row === undefined) throw new Error('no row');
  return row;
}

const ID = 'c0p1107a-0000-4000-8000-00000000000';

describe('GitHub Copilot CLI, read from its files', () => {
  it('a turn in progress is running; its title is the first prompt, its folder from session.start', async () => {
    const row = await rowOf(home(`${ID}1`, [START(`${ID}1`), PROMPT(1), TURN_START(2)]), 5);
    expect(row).toMatchObject({
      key: `copilot:${ID}1`,
      provider: 'copilot',
      title: 'add a test',
      cwd: '/home/me/app',
      branch: 'main',
      observed: { state: 'running', confidence: 'inferred' },
    });
  });

  it('a turn that asked for tools goes on after its turn_end (turn ids restart per message)', async () => {
    const lines = [
      START(`${ID}2`),
      PROMPT(1),
      TURN_START(2),
      MESSAGE(3, '', [{ id: 't1', name: 'bash', command: 'ls' }]),
      TOOL_START(3, 't1', 'bash', 'ls'),
      TOOL_DONE(4, 't1'),
      TURN_END(5),
    ];
    expect((await rowOf(home(`${ID}2`, lines), 6)).observed.state).toBe('running');
    const done = [...lines, TURN_START(6), MESSAGE(7, 'done'), TURN_END(8)];
    expect(await rowOf(home(`${ID}3`, done), 9)).toMatchObject({ observed: { state: 'idle', reason: 'turn-finished' } });
  });

  it('R3 a tool started without its completion is running, then only "may be waiting" past the grace', async () => {
    const lines = [
      START(`${ID}4`),
      PROMPT(1),
      TURN_START(2),
      MESSAGE(3, '', [{ id: 't1', name: 'bash', command: 'rm -rf dist' }]),
      TOOL_START(3, 't1', 'bash', 'rm -rf dist'),
    ];
    expect((await rowOf(home(`${ID}4`, lines), 5)).observed.state).toBe('running');
    const later = await rowOf(home(`${ID}5`, lines), 60);
    expect(later.observed).toMatchObject({ reason: 'tool-pending', confidence: 'inferred', detail: 'bash: rm -rf dist' });
    expect(later.claim?.ambiguous).toBe(true);
  });

  it('an approval prompt written to the file (permission.requested) is awaiting approval, direct; its answer clears it (R8)', async () => {
    const asked = [
      START(`${ID}6`),
      PROMPT(1),
      TURN_START(2),
      MESSAGE(3, '', [{ id: 't1', name: 'bash' }]),
      TOOL_START(3, 't1', 'bash', 'echo written > out.txt'),
      event('permission.requested', 3, {
        requestId: 'r1',
        permissionRequest: { kind: 'shell', toolCallId: 't1', fullCommandText: 'echo written > out.txt', intention: 'Create out.txt' },
      }),
    ];
    expect(await rowOf(home(`${ID}6`, asked), 10)).toMatchObject({
      observed: { state: 'awaiting-approval', reason: 'approval-requested', confidence: 'direct', detail: 'shell: echo written > out.txt' },
      claim: { kind: 'needs-you', ambiguous: false },
    });
    const answered = [...asked, event('permission.completed', 12, { requestId: 'r1', result: { kind: 'approved' } }), TOOL_DONE(13, 't1')];
    expect((await rowOf(home(`${ID}7`, answered), 14)).observed.state).toBe('running');
  });

  it('abort is interrupted; session.error inside a turn is an error, an MCP error or one between turns is not', async () => {
    expect((await rowOf(home(`${ID}8`, [START(`${ID}8`), PROMPT(1), TURN_START(2), event('abort', 4, { reason: 'user' })]), 5)).observed.reason).toBe(
      'interrupted',
    );
    const failed = await rowOf(
      home(`${ID}9`, [START(`${ID}9`), PROMPT(1), TURN_START(2), event('session.error', 4, { errorType: 'model_call', message: 'the model call failed' })]),
      5,
    );
    expect(failed).toMatchObject({ observed: { state: 'error', detail: 'the model call failed' }, claim: { kind: 'failed' } });
    const mcp = await rowOf(
      home(`${ID}a`, [START(`${ID}a`), PROMPT(1), TURN_START(2), event('session.error', 3, { errorType: 'mcp', message: 'server x failed' })]),
      5,
    );
    expect(mcp.observed.state).toBe('running');
    const between = await rowOf(
      home(`${ID}b`, [
        START(`${ID}b`),
        PROMPT(1),
        TURN_START(2),
        MESSAGE(3, 'done'),
        TURN_END(4),
        event('session.error', 6, { errorType: 'system_enotconn', message: 'socket closed' }),
      ]),
      7,
    );
    expect(between.observed).toMatchObject({ state: 'idle', reason: 'turn-finished' });
  });

  it('a shutdown ends the session unless a resume follows; workspace.yaml names it', async () => {
    const shut = [START(`${ID}c`), PROMPT(1), TURN_START(2), MESSAGE(3, 'ok'), TURN_END(4), event('session.shutdown', 5, { shutdownType: 'routine' })];
    const workspace = `id: ${ID}c\ncwd: /home/me/app\nbranch: main\nsummary: Add The Test\nsummary_count: 1\n`;
    expect(await rowOf(home(`${ID}c`, shut, { workspace }), 6)).toMatchObject({
      title: 'Add The Test',
      observed: { state: 'ended', reason: 'session-end-hook' },
    });
    const resumed = [
      ...shut,
      event('session.resume', 20, { resumeTime: iso(20), eventCount: 6, context: { cwd: '/home/me/app' } }),
      PROMPT(21, 'again'),
      TURN_START(22),
    ];
    expect((await rowOf(home(`${ID}d`, resumed), 23)).observed.state).toBe('running');
  });

  it('subagents are children of the row, never rows: live while started, gone when completed', async () => {
    const started = [
      START(`${ID}e`),
      PROMPT(1),
      TURN_START(2),
      MESSAGE(3, '', [{ id: 'task-1', name: 'task' }]),
      event('subagent.started', 3, { toolCallId: 'task-1', agentName: 'explore', agentDisplayName: 'Explorer' }),
      event('assistant.message', 4, { content: 'looking', toolRequests: [] }, { agentId: 'task-1' }),
    ];
    const live = await rowOf(home(`${ID}e`, started), 5);
    expect(live.children.live).toBe(1);
    const ended = [
      ...started,
      event('subagent.completed', 6, { toolCallId: 'task-1', agentName: 'explore' }),
      TOOL_DONE(6, 'task-1'),
      MESSAGE(7, 'all done'),
      TURN_END(8),
    ];
    const finished = await rowOf(home(`${ID}f`, ended), 9);
    expect(finished.children.live).toBe(0);
    expect(finished.observed.state).toBe('idle');
  });

  it('a subagent that completed inside a lead turn that then asked for nothing more is not running-subagents (1.0.102, agentId and parentToolCallId)', async () => {
    const lines = [
      START(`${ID}g`),
      PROMPT(1),
      TURN_START(2),
      MESSAGE(3, '', [{ id: 'call_2', name: 'task' }]),
      TOOL_START(3, 'call_2', 'task', 'List the files here.'),
      event('subagent.started', 3, { toolCallId: 'call_2', agentName: 'general-purpose', agentDisplayName: 'lab-helper' }, { agentId: 'agent-9' }),
      event('assistant.turn_start', 4, { turnId: '0', parentToolCallId: 'call_2' }, { agentId: 'agent-9' }),
      event('assistant.turn_end', 5, { turnId: '0', parentToolCallId: 'call_2' }, { agentId: 'agent-9' }),
      event('subagent.completed', 5, { toolCallId: 'call_2', agentName: 'general-purpose' }, { agentId: 'agent-9' }),
      TOOL_DONE(5, 'call_2'),
      TURN_END(5),
    ];
    // Between the lead's tool turn and its answer: working, the child done.
    const between = await rowOf(home(`${ID}g`, lines), 6);
    expect(between.observed.state).toBe('running');
    expect(between.children.live).toBe(0);
    const answered = await rowOf(home(`${ID}h`, [...lines, TURN_START(6, '1'), MESSAGE(7, 'Nothing here.'), TURN_END(7, '1')]), 8);
    expect(answered.observed).toMatchObject({ state: 'idle', reason: 'turn-finished' });
  });

  it("a turn stopped by a limit (1.0.102, the lab's 429: session.error errorType rate_limit after turn_end) reads limited/usage-limit, no reset time; a quota error too; a 500 stays error", async () => {
    const PROMPT_ID = (seconds: number) => event('user.message', seconds, { content: 'go', transformedContent: 'go', messageId: 'msg-1', interactionId: 'i1' });
    const limited = (type: string, status: number, message: string) => [
      START(`${ID}k`),
      PROMPT_ID(1),
      TURN_START(2),
      TURN_END(3),
      event('session.error', 3, { errorType: type, message, statusCode: status, originatingMessageId: 'msg-1' }),
    ];
    const rate = await rowOf(
      home(`${ID}k`, limited('rate_limit', 429, '429 You exceeded your current quota, please check your plan and billing details.')),
      10,
    );
    expect(rate.observed).toMatchObject({
      state: 'limited',
      reason: 'usage-limit',
      detail: '429 You exceeded your current quota, please check your plan and billing details.',
    });
    // The record names no reset time: none is guessed (the retry-after the model sent is not kept).
    const [evidence] = await new CopilotProvider(home(`${ID}n`, limited('rate_limit', 429, 'limit'))).sync(T0 + 10_000);
    expect(evidence?.signal).toEqual({ kind: 'usage-limit', at: T0 + 3_000, resetsAt: null, detail: 'limit' });
    const quota = await rowOf(home(`${ID}l`, limited('quota', 402, 'You have no quota')), 10);
    expect(quota.observed.state).toBe('limited');
    const server = await rowOf(home(`${ID}m`, limited('query', 500, '500 lab model down')), 10);
    expect(server.observed).toMatchObject({ state: 'error', reason: 'api-error' });
  });

  it("a 1.0.102 subagent's own events (named by an agentId of their own, not the task call's id) count as its activity", async () => {
    const lines = [
      START(`${ID}o`),
      PROMPT(1),
      TURN_START(2),
      MESSAGE(3, '', [{ id: 'call_9', name: 'task' }]),
      TOOL_START(3, 'call_9', 'task', 'List the files here.'),
      event(
        'subagent.started',
        3,
        { toolCallId: 'call_9', agentName: 'general-purpose', agentDisplayName: 'lab-helper' },
        { agentId: '8645c4f3-2fba-4bce-a437-bd8c08df0bab' },
      ),
      event('assistant.turn_start', 40, { turnId: '0', parentToolCallId: 'call_9' }, { agentId: '8645c4f3-2fba-4bce-a437-bd8c08df0bab' }),
    ];
    const [evidence] = await new CopilotProvider(home(`${ID}o`, lines)).sync(T0 + 41_000);
    expect(evidence?.children.map((child) => [child.id, child.lastAt])).toEqual([['call_9', T0 + 40_000]]);
  });

  it('a subagent that failed (1.0.102 subagent.failed: data.error, agentId) is blocked while the lead turn is open, and over once the lead turn ends', async () => {
    const lines = [
      START(`${ID}i`),
      PROMPT(1),
      TURN_START(2),
      MESSAGE(3, '', [{ id: 'call_7', name: 'task' }]),
      TOOL_START(3, 'call_7', 'task', 'List the files here.'),
      event('subagent.started', 3, { toolCallId: 'call_7', agentName: 'general-purpose', agentDisplayName: 'lab-helper' }, { agentId: 'agent-3' }),
      // The shape of 1.0.102's schemas/session-events.schema.json: error (required), toolCallId, names, durationMs.
      event(
        'subagent.failed',
        5,
        {
          toolCallId: 'call_7',
          agentName: 'general-purpose',
          agentDisplayName: 'lab-helper',
          error: 'Failed to get response from the AI model; retried 5 times',
          durationMs: 2000,
        },
        { agentId: 'agent-3' },
      ),
    ];
    const open = await rowOf(home(`${ID}i`, lines), 6);
    expect(open.observed.state).toBe('running');
    const answered = [
      ...lines,
      event('tool.execution_complete', 5, { toolCallId: 'call_7', success: false, error: { message: 'subagent failed' } }),
      TURN_START(6, '1'),
      MESSAGE(7, 'The helper failed.'),
      TURN_END(7, '1'),
    ];
    const ended = await rowOf(home(`${ID}j`, answered), 8);
    expect(ended.children.live).toBe(0);
    expect(ended.observed).toMatchObject({ state: 'idle', reason: 'turn-finished' });
    // A background task's child failing after the lead's turn ended keeps nothing working either.
    const background = [
      START(`${ID}p`),
      PROMPT(1),
      TURN_START(2),
      event('subagent.started', 3, { toolCallId: 'call_b', agentName: 'general-purpose', executionMode: 'background' }, { agentId: 'agent-b' }),
      MESSAGE(3, 'Started it in the background.'),
      TURN_END(4),
      event('subagent.failed', 9, { toolCallId: 'call_b', agentName: 'general-purpose', agentDisplayName: 'helper', error: 'boom' }, { agentId: 'agent-b' }),
    ];
    expect((await rowOf(home(`${ID}p`, background), 10)).observed).toMatchObject({ state: 'idle', reason: 'turn-finished' });
  });

  describe('autopilot (1.0.102, as the live lab recorded it)', () => {
    const CONTINUE = (seconds: number) =>
      event('user.message', seconds, {
        content: '',
        transformedContent: 'You have not yet marked the task as complete using the task_complete tool.',
        source: 'autopilot',
        agentMode: 'autopilot',
        isAutopilotContinuation: true,
        interactionId: 'i2',
      });
    const TASK_COMPLETE = (seconds: number, success = true, summary = 'All done here.') => [
      MESSAGE(seconds, '', [{ id: 'tc', name: 'task_complete' }]),
      TOOL_START(seconds, 'tc', 'task_complete', ''),
      TOOL_DONE(seconds, 'tc'),
      event('session.task_complete', seconds, { summary, success }),
      TURN_END(seconds),
    ];
    const loop = [START(`${ID}i`), PROMPT(1, 'do the thing'), TURN_START(2), MESSAGE(3, 'Working on it.'), TURN_END(3), CONTINUE(4), TURN_START(4)];

    it('its "keep going" message is the same turn, still working: not a new prompt, not a new title', async () => {
      const row = await rowOf(home(`${ID}i`, loop), 5);
      expect(row).toMatchObject({ title: 'do the thing', observed: { state: 'running' } });
      const evidence = await new CopilotProvider(home(`${ID}j`, loop)).sync(T0 + 5000);
      expect(evidence[0]?.turn?.startedAt).toBe(T0 + 1000);
    });

    it('after session.task_complete and assistant.turn_end the loop has ended: finished, not running/turn-open', async () => {
      const row = await rowOf(home(`${ID}k`, [...loop, ...TASK_COMPLETE(5)]), 6);
      expect(row.observed).toMatchObject({ state: 'idle', reason: 'turn-finished' });
      const evidence = await new CopilotProvider(home(`${ID}l`, [...loop, ...TASK_COMPLETE(5)])).sync(T0 + 6000);
      expect(evidence[0]?.turn).toMatchObject({ startedAt: T0 + 1000, endedAt: T0 + 5000 });
    });

    it("task_complete with success false is a failed end, in the agent's words", async () => {
      const row = await rowOf(home(`${ID}m`, [...loop, ...TASK_COMPLETE(5, false, 'Could not reach the server.')]), 6);
      expect(row.observed).toMatchObject({ state: 'error', detail: 'Could not reach the server.' });
    });

    it('a cold read whose window starts at a continuation still finds the prompt that opened the loop', async () => {
      const padding = Array.from({ length: 400 }, (_, index) =>
        event('session.usage_record', 4, { usage: { model: 'fake-model', note: 'x'.repeat(40), index } }),
      );
      const root = home(`${ID}n`, [...loop, ...padding, CONTINUE(6), TURN_START(6), ...TASK_COMPLETE(7)]);
      const evidence = await new CopilotProvider(root, {
        firstWindow: 2048,
        maxWindow: 16 * 1024 * 1024,
        headBytes: 4096,
        maxLineBytes: 1 << 20,
        maxLines: 100_000,
      }).sync(T0 + 8000);
      expect(evidence[0]?.turn?.startedAt).toBe(T0 + 1000);
      expect(evidence[0]?.title).toBe('do the thing');
    });
  });

  it('a lock whose process is alive holds the session; one whose process is gone or reused ends it (R7)', () => {
    const locks = [{ path: join(base, 'lock-a'), pid: 4242 }];
    writeFileSync(locks[0]?.path ?? '', '4242\n');
    expect(lockLiveness(locks, T0, T0, () => 'alive')).toEqual({ kind: 'alive', pid: 4242 });
    expect(lockLiveness(locks, T0, T0, () => 'no-process')).toMatchObject({ kind: 'dead', why: 'no-process', at: T0 });
    expect(lockLiveness(locks, T0, T0, () => 'pid-reused')).toMatchObject({ kind: 'dead', why: 'pid-reused' });
    expect(lockLiveness([], T0, T0)).toEqual({ kind: 'unreported' });
    // This very process holds a lock written after it started: alive.
    const own = [{ path: join(base, 'lock-own'), pid: process.pid }];
    writeFileSync(own[0]?.path ?? '', `${process.pid}\n`);
    expect(lockLiveness(own, T0, T0)).toEqual({ kind: 'alive', pid: process.pid });
  });

  it('the older flat layout (session-state/<id>.jsonl) is read too', async () => {
    const root = join(base, 'flat');
    mkdirSync(join(root, 'session-state'), { recursive: true });
    writeFileSync(
      join(root, 'session-state', `${ID}0.jsonl`),
      `${[START(`${ID}0`), PROMPT(1, 'flat one'), TURN_START(2), MESSAGE(3, 'done'), TURN_END(4)].join('\n')}\n`,
    );
    expect(await rowOf(root, 5)).toMatchObject({ key: `copilot:${ID}0`, title: 'flat one', observed: { state: 'idle' } });
  });
});

const SAMPLES = resolve(__dirname, '../../../shared/real-samples');
const present = existsSync(SAMPLES);
if (!present) console.log(`Copilot real-sample tests skipped: ${SAMPLES} is not here`);

describe.skipIf(!present)('GitHub Copilot CLI real samples', () => {
  it('agent-engram, read where it lies: two sessions whose locks name processes long gone have ended', async () => {
    const root = join(SAMPLES, 'copilot-cli', 'agent-engram', '.copilot');
    const now = Date.parse('2026-03-22T00:00:00Z');
    const evidence = await new CopilotProvider(root).sync(now);
    // The third folder has no events.jsonl: not a session.
    expect(evidence.map((item) => item.sessionId).sort()).toEqual(['07c40cd0-ff51-4d6e-bdcd-ac2f90877203', '8baa78ec-b203-4c7f-b1d3-c1170ae84b7d']);
    const rows = evaluate({ sessions: evidence, facts: emptyFacts(), settings: defaultSettings(), now, onScreen: null }).snapshot.sessions;
    expect(rows.find((row) => row.sessionId.startsWith('8baa'))?.title).toBe('Fix MCP Config File');
    // Liveness from locks is checked against this machine's processes: a pid that happens to be alive here reads alive.
    for (const row of rows) expect(['ended', 'idle', 'running', 'unknown']).toContain(row.observed.state);
  });

  it("agent-engram 07c40cd0 ends with autopilot's task_complete then turn_end: finished, not running (events alone, no locks)", async () => {
    const id = '07c40cd0-ff51-4d6e-bdcd-ac2f90877203';
    const root = join(base, 'engram-task-complete');
    mkdirSync(join(root, 'session-state', id), { recursive: true });
    const text = readFileSync(join(SAMPLES, 'copilot-cli', 'agent-engram', '.copilot', 'session-state', id, 'events.jsonl'), 'utf8');
    writeFileSync(join(root, 'session-state', id, 'events.jsonl'), text);
    const last = Date.parse(JSON.parse(text.trimEnd().split('\n').at(-1) ?? '{}').timestamp);
    const now = last + 2000;
    const evidence = await new CopilotProvider(root).sync(now);
    const row = evaluate({ sessions: evidence, facts: emptyFacts(), settings: defaultSettings(), now, onScreen: null }).snapshot.sessions[0];
    expect(row?.observed).toMatchObject({ state: 'idle', reason: 'turn-finished' });
  });

  // Each Irrlicht recording without its teardown `session.shutdown`: the state the recording documents.
  const EXPECTED: Record<string, string> = {
    '2-19_tool-gate-permission-prompt': 'awaiting-approval',
    '2-1_basic-turn': 'idle',
    '2-2_auto-executed-tool-call': 'idle',
    '2-12_context-compaction': 'idle',
    '2-16_oversized-transcript-line': 'idle',
    '3-5_workflow-fanout': 'idle',
    '2-9_token-quota-exhausted': 'idle',
    // Autopilot that hit its continuation limit: the last turn_end closes the loop.
    '2-8_autonomous-loop-iteration-limit': 'idle',
  };
  const recordings = join(SAMPLES, 'irrlicht-copilot');
  it.each(Object.entries(EXPECTED))('Irrlicht %s before teardown reads %s', async (scenario, state) => {
    const folder = join(recordings, scenario, 'recordings');
    for (const recording of readdirSync(folder)) {
      const lines = readFileSync(join(folder, recording, 'transcript.jsonl'), 'utf8')
        .trimEnd()
        .split('\n');
      expect(JSON.parse(lines.at(-1) ?? '{}').type).toBe('session.shutdown');
      const root = join(base, `irrlicht-${scenario}-${recording}`);
      mkdirSync(join(root, 'session-state', 's'), { recursive: true });
      writeFileSync(join(root, 'session-state', 's', 'events.jsonl'), `${lines.slice(0, -1).join('\n')}\n`);
      const last = Date.parse(JSON.parse(lines.at(-2) ?? '{}').timestamp);
      const now = last + 2000;
      const evidence = await new CopilotProvider(root).sync(now);
      const row = evaluate({ sessions: evidence, facts: emptyFacts(), settings: defaultSettings(), now, onScreen: null }).snapshot.sessions[0];
      expect(row?.observed.state, `${scenario}/${recording}`).toBe(state);
      expect(evidence[0]?.skippedLines).toBe(0);
    }
  });
});

describe('workspace.yaml', () => {
  it('top-level strings are read as YAML reads them (quotes, escapes, block scalars); lists and broken values are passed over', () => {
    const text = [
      'id: 8baa78ec-b203-4c7f-b1d3-c1170ae84b7d',
      'cwd: D:\\Source\\GitHub\\agent-engram',
      'summary: "Fix: MCP \\"config\\" # file"',
      "branch: '007-refactor'",
      'notes: |',
      '  line one',
      '  line two',
      'tags:',
      '  - a',
      'summary_count: 1 # a comment',
      '',
    ].join('\n');
    expect(workspaceFields(text)).toEqual({
      id: '8baa78ec-b203-4c7f-b1d3-c1170ae84b7d',
      cwd: 'D:\\Source\\GitHub\\agent-engram',
      summary: 'Fix: MCP "config" # file',
      branch: '007-refactor',
      notes: 'line one\nline two\n',
      summary_count: '1',
    });
    expect(workspaceFields('- a\n- b\n')).toEqual({});
    expect(workspaceFields('summary: null\ncwd: ~\nbranch: main\n')).toEqual({ branch: 'main' });
    expect(workspaceFields('summary: "null"\ncwd: ~\nbranch: main\n')).toEqual({ summary: 'null', branch: 'main' });
    expect(workspaceFields('summary: "never closed\n')).toEqual({});
    expect(workspaceFields('\u0000\u0001: [')).toEqual({});
  });
});

describe('workspace.yaml, property', () => {
  it('whatever the values, every string the yaml package reads is read the same (the plain fast path never guesses)', () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const pieces = [
      'Fix',
      ' ',
      'the',
      ': ',
      ':',
      ' #',
      '#',
      '"',
      "'",
      '-',
      '- ',
      '|',
      '>',
      '[',
      ']',
      '{',
      '}',
      ',',
      '&',
      '*',
      '!',
      '%',
      '@',
      '`',
      '\\',
      'D:\\Source',
      '\t',
      'é',
      '2026-03-20T19:08:04.310Z',
      'true',
      '1',
      '~',
      '?',
      '  ',
      'null',
      'NULL',
      '"null"',
    ];
    const value = () => Array.from({ length: 1 + Math.floor(random() * 5) }, () => pieces[Math.floor(random() * pieces.length)]).join('');
    let compared = 0;
    for (let round = 0; round < 6000; round += 1) {
      const lines = ['summary', 'cwd', 'branch'].map((key) => `${key}: ${value()}`);
      if (random() < 0.2) lines.splice(1, 0, `  ${value()}`);
      const text = `${lines.join(random() < 0.2 ? '\r\n' : '\n')}\n`;
      let parsed: Record<string, unknown>;
      try {
        const document = parseDocument(text);
        if (document.errors.length > 0) continue;
        parsed = (document.toJS() ?? {}) as Record<string, unknown>;
      } catch {
        continue;
      }
      const fields = workspaceFields(text);
      for (const key of ['summary', 'cwd', 'branch']) {
        const expected = parsed[key];
        // What YAML reads as null is no value at all (never the text "null" or "~").
        if (expected === null) expect(fields[key], JSON.stringify(text)).toBeUndefined();
        if (typeof expected !== 'string' || expected === '') continue;
        compared += 1;
        expect(fields[key], JSON.stringify(text)).toBe(expected);
      }
    }
    expect(compared).toBeGreaterThan(1000);
  });
});
