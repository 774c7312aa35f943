// Qwen Code read from its chat files (0.24.4): the real samples the CLI wrote on this machine
// (shared/real-samples/generated/qwen-code, read where they lie, laid out in a temp root at test
// time), and small lines in the CLI's own shapes for what the samples lack (recorded in the lab).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Row } from '../../src/engine';
import { defaultSettings, emptyFacts, evaluate } from '../../src/engine';
import { resolveRoots } from '../../src/providers';
import { QwenProvider } from '../../src/providers/qwen/provider';
import { runCli } from '../main/cli-process';
import { SESSION, T0, api, apiError, assistant, at, call, iso, lines, prompt, result, system } from './qwen-lines';

const SAMPLES = resolve(__dirname, '../../../shared/real-samples/generated/qwen-code');
const present = existsSync(SAMPLES);
if (!present) console.log(`Qwen Code real-sample tests skipped: ${SAMPLES} is not here`);

const base = mkdtempSync(join(tmpdir(), 'lookout-qwen-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
let roots = 0;

/** A QWEN_HOME holding one chat file (and what else is given) in a project folder named as Qwen names it. */
function root(text: string, extra: { runtime?: Record<string, unknown>; files?: Record<string, string>; id?: string } = {}): string {
  roots += 1;
  const folder = join(base, `root-${roots}`);
  const project = join(folder, 'projects', '-home-dev-app');
  const chats = join(project, 'chats');
  mkdirSync(chats, { recursive: true });
  const id = extra.id ?? SESSION;
  writeFileSync(join(chats, `${id}.jsonl`), text);
  if (extra.runtime !== undefined)
    writeFileSync(
      join(chats, `${id}.runtime.json`),
      JSON.stringify({
        schema_version: 1,
        session_id: id,
        work_dir: '/home/dev/app',
        hostname: hostname(),
        started_at: T0 / 1000,
        qwen_version: '0.24.4',
        ...extra.runtime,
      }),
    );
  for (const [name, content] of Object.entries(extra.files ?? {})) {
    mkdirSync(join(project, name, '..'), { recursive: true });
    writeFileSync(join(project, name), content);
  }
  return folder;
}

async function rowOf(folder: string, now: number): Promise<Row> {
  const evidence = await new QwenProvider(folder).sync(now);
  const row = evaluate({ sessions: evidence, facts: emptyFacts(), settings: defaultSettings(), now, onScreen: null }).snapshot.sessions[0];
  if (row === undefined) throw new Error('no row');
  return row;
}

const sample = (name: string): string => readFileSync(join(SAMPLES, name), 'utf8');
/** A sample's last record time, and the sample cut to its first `count` lines. */
const lastAt = (text: string): number =>
  Math.max(
    ...text
      .trim()
      .split('\n')
      .map((line) => Date.parse((JSON.parse(line) as { timestamp: string }).timestamp)),
  );
const firstLines = (text: string, count: number): string => `${text.trim().split('\n').slice(0, count).join('\n')}\n`;

describe.skipIf(!present)('Qwen Code real samples (0.24.4, written on this machine)', () => {
  it("R13 headless `qwen -p hi`: finished, named by its prompt; the memory extractor's call after the answer changes nothing", async () => {
    const text = sample('headless/b7ef04f7-277e-4279-8c1c-be8128b76d68.jsonl');
    const row = await rowOf(root(text, { id: 'b7ef04f7-277e-4279-8c1c-be8128b76d68' }), lastAt(text) + 10_000);
    expect(row.observed.state).toBe('idle');
    expect(row.observed.reason).toBe('turn-finished');
    expect(row.title).toBe('hi');
    expect(row.key).toBe('qwen:b7ef04f7-277e-4279-8c1c-be8128b76d68');
  });

  it('R3 awaiting-approval.jsonl: the call written before the dialog reads running for its grace, then "may be waiting" (unknown/tool-pending) naming the command', async () => {
    const text = sample('awaiting-approval.jsonl');
    const fresh = await rowOf(root(text), lastAt(text) + 3_000);
    expect(fresh.observed).toMatchObject({ state: 'running', reason: 'tool-running' });
    const row = await rowOf(root(text), lastAt(text) + 20_000);
    expect(row.observed).toMatchObject({ state: 'unknown', reason: 'tool-pending', detail: 'run_shell_command: touch qwen-made.txt', source: 'qwen.chat' });
    expect(row.claim?.kind).toBe('needs-you');
    expect(row.cwd).toBe('/home/dev/scratch/run/qwen/proj2');
  });

  it('R1 streaming.jsonl (a held answer) reads running; after-esc.jsonl is the same file (Escape before any answer writes nothing): it cannot read otherwise', async () => {
    const streaming = sample('streaming.jsonl');
    expect(sample('after-esc.jsonl')).toBe(streaming);
    const row = await rowOf(root(streaming), lastAt(streaming) + 20_000);
    expect(row.observed).toMatchObject({ state: 'running', reason: 'turn-open' });
  });

  it("R5 after-err.jsonl: seven api_error records (Qwen's whole budget), nothing after: error/api-error with the server's words; after three it is still retrying (running)", async () => {
    const text = sample('after-err.jsonl');
    const row = await rowOf(root(text), lastAt(text) + 30_000);
    expect(row.observed).toMatchObject({ state: 'error', reason: 'api-error', detail: '500 fake internal error' });
    expect(row.claim?.kind).toBe('failed');
    // The prompt's line, its snapshots, three failed attempts.
    const retrying = firstLines(
      text,
      text
        .trim()
        .split('\n')
        .findIndex((line) => line.includes('qwen-code.api_error')) + 3,
    );
    expect((await rowOf(root(retrying), lastAt(retrying) + 5_000)).observed).toMatchObject({ state: 'running', reason: 'turn-open' });
  });

  it('R7 the runtime.json /quit left behind names a pid that is gone: the session reads ended', async () => {
    const text = sample('after-quit.jsonl');
    const runtime = JSON.parse(sample('bd926000-16ae-47ab-b06c-15f7094a3667.runtime.json')) as Record<string, unknown>;
    const row = await rowOf(root(text, { runtime: { ...runtime, pid: 2_147_483_646, hostname: hostname() } }), lastAt(text) + 60_000);
    expect(row.observed).toMatchObject({ state: 'ended', reason: 'process-gone', source: 'qwen.runtime' });
  });
});

describe("Qwen Code chat records (hand-made in the CLI's shapes)", () => {
  const started = [prompt(0, 'add a test'), system(0.1, 'attribution_snapshot')];

  it('R3 a question (ask_user_question) pending reads awaiting-input at once, naming the question', async () => {
    const ask = {
      questions: [
        {
          question: 'Which colour?',
          header: 'Colour',
          options: [
            { label: 'Red', description: 'Warm' },
            { label: 'Blue', description: 'Cool' },
          ],
        },
      ],
    };
    const row = await rowOf(root(lines(...started, api(1), call(1.1, 'c1', 'ask_user_question', ask))), at(2));
    expect(row.observed).toMatchObject({ state: 'awaiting-input', reason: 'question-pending', detail: 'asks: Which colour?' });
  });

  it('R3 a plan (exit_plan_mode) pending reads awaiting-input (plan-approval-pending)', async () => {
    const row = await rowOf(root(lines(...started, api(1), call(1.1, 'c1', 'exit_plan_mode', { plan: 'Do it' }))), at(30));
    expect(row.observed).toMatchObject({ state: 'awaiting-input', reason: 'plan-approval-pending' });
  });

  it('R8 a call declined or cancelled (tool_result status cancelled) ends the turn: idle/interrupted, not running', async () => {
    const row = await rowOf(
      root(lines(...started, api(1), call(1.1, 'c1', 'run_shell_command', { command: 'rm -rf dist' }), result(5, 'c1', 'cancelled'))),
      at(60),
    );
    expect(row.observed).toMatchObject({ state: 'idle', reason: 'interrupted' });
    // A call that ran (or failed) goes back to the model: the turn is still open.
    const ran = await rowOf(root(lines(...started, api(1), call(1.1, 'c1', 'run_shell_command', { command: 'npm test' }), result(5, 'c1', 'error'))), at(6));
    expect(ran.observed).toMatchObject({ state: 'running', reason: 'turn-open' });
  });

  it('R8 an answer cut short by Escape (no api_response before it, no usage on it) reads interrupted; a whole answer reads finished once settled', async () => {
    const cut = await rowOf(root(lines(...started, assistant(4, 'Holding…', false))), at(10));
    expect(cut.observed).toMatchObject({ state: 'idle', reason: 'interrupted' });
    const whole = await rowOf(root(lines(...started, api(3.9), assistant(4, 'Done.'))), at(10));
    expect(whole.observed).toMatchObject({ state: 'idle', reason: 'turn-finished' });
    // Within its first seconds a whole answer may still be followed (a Stop hook, the goal runtime).
    expect((await rowOf(root(lines(...started, api(3.9), assistant(4, 'Done.'))), at(5))).observed.state).toBe('running');
    // An older writer with no telemetry still wrote usage on a whole answer: finished, not interrupted.
    expect((await rowOf(root(lines(...started, assistant(4, 'Done.'))), at(10))).observed.reason).toBe('turn-finished');
  });

  it("R5 a client error (401) fails at once; rate limits (429) are waited out: running however many; a side query's failure after a finished turn changes nothing", async () => {
    const auth = await rowOf(root(lines(...started, apiError(3, 401, 'lab bad key'))), at(4));
    expect(auth.observed).toMatchObject({ state: 'error', reason: 'api-error', detail: '401 lab bad key' });
    const limited = lines(...started, ...Array.from({ length: 9 }, (_, index) => apiError(3 + index, 429, 'slow down')));
    expect((await rowOf(root(limited), at(13))).observed).toMatchObject({ state: 'running', reason: 'turn-open' });
    const side = lines(...started, api(3), assistant(3.1, 'Done.'), apiError(5, 500, 'down', `${SESSION}#managed-auto-memory-extractor-1c74578f#0`));
    expect((await rowOf(root(side), at(20))).observed).toMatchObject({ state: 'idle', reason: 'turn-finished' });
    // An answer after failed attempts: the retries succeeded.
    const recovered = lines(...started, apiError(3, 500, 'down'), apiError(6, 500, 'down'), api(9), assistant(9.1, 'Done.'));
    expect((await rowOf(root(recovered), at(20))).observed.reason).toBe('turn-finished');
  });

  it("R80 a quota spent until a reset (Qwen's own fast-fail words) is a usage limit at once, its reset the instant the words name; a quota 429 without a reset is retried (running)", async () => {
    const words = 'Quota exceeded: your daily quota will reset at 2026-12-05T00:00:00Z.';
    const spent = await rowOf(root(lines(...started, apiError(3, 429, words))), at(4));
    expect(spent.observed).toMatchObject({ state: 'limited', reason: 'usage-limit', source: 'qwen.chat', detail: `429 ${words}` });
    expect((await new QwenProvider(root(lines(...started, apiError(3, 429, words)))).sync(at(4)))[0]?.signal).toEqual({
      kind: 'usage-limit',
      at: at(3),
      resetsAt: Date.parse('2026-12-05T00:00:00Z'),
      detail: `429 ${words}`,
    });
    // A clock time with no zone would be a guess: no reset time, the words kept.
    const unzoned = await new QwenProvider(root(lines(...started, apiError(3, 429, 'Quota exhausted; it will reset at 9:00 PM.')))).sync(at(4));
    expect(unzoned[0]?.signal).toMatchObject({ kind: 'usage-limit', resetsAt: null });
    const retried = lines(
      ...started,
      apiError(3, 429, 'You exceeded your current quota, please check your plan and billing details.'),
      apiError(8, 429, 'You exceeded your current quota, please check your plan and billing details.'),
    );
    expect((await rowOf(root(retried), at(9))).observed).toMatchObject({ state: 'running', reason: 'turn-open' });
    // The same words typed by the user are a prompt, not a limit.
    expect((await rowOf(root(lines(...started.slice(0, -1), prompt(2, 'Quota exceeded: will reset at 2026-12-05T00:00:00Z'))), at(3))).observed.state).toBe(
      'running',
    );
  });

  it('R11 an `agent` call pending with no subagent yet may be waiting (Qwen asks first); once its subagent runs, the lead reads running; a finished subagent leaves the turn to the lead', async () => {
    const lead = lines(
      ...started,
      api(1),
      call(1.1, 'call_2', 'agent', { description: 'Look around', prompt: 'List the files.', subagent_type: 'general-purpose' }),
    );
    expect((await rowOf(root(lead), at(30))).observed).toMatchObject({ state: 'unknown', reason: 'tool-pending', detail: 'agent: Look around' });
    const child = `subagents/${SESSION}/agent-general-purpose-call_2`;
    const meta = (status: string) =>
      JSON.stringify({
        agentId: 'general-purpose-call_2',
        agentType: 'general-purpose',
        description: 'Look around',
        parentSessionId: SESSION,
        toolUseId: 'call_2',
        createdAt: iso(3),
        status,
        lastUpdatedAt: iso(status === 'running' ? 3 : 20),
      });
    const childLines = lines(
      JSON.stringify({
        uuid: 'u1',
        sessionId: SESSION,
        timestamp: iso(3),
        type: 'user',
        message: { role: 'user', parts: [{ text: 'List the files.' }] },
        agentId: 'general-purpose-call_2',
        isSidechain: true,
      }),
    );
    const running = await rowOf(root(lead, { files: { [`${child}.jsonl`]: childLines, [`${child}.meta.json`]: meta('running') } }), at(30));
    expect(running.observed).toMatchObject({ state: 'running', reason: 'tool-running' });
    // A background subagent still at work after the lead's answer: running-subagents, named by its task.
    const background = lines(
      ...started,
      api(1),
      call(1.1, 'call_2', 'agent', { description: 'Look around', prompt: 'x', run_in_background: true }),
      result(1.5, 'call_2', 'success'),
      api(2),
      assistant(2.1, 'Started it.'),
    );
    const row = await rowOf(root(background, { files: { [`${child}.jsonl`]: childLines, [`${child}.meta.json`]: meta('running') } }), at(10));
    expect(row.observed).toMatchObject({ state: 'running-subagents', reason: 'child-working', detail: 'subagent Look around working' });
    const done = await rowOf(root(background, { files: { [`${child}.jsonl`]: childLines, [`${child}.meta.json`]: meta('completed') } }), at(30));
    expect(done.observed).toMatchObject({ state: 'idle', reason: 'turn-finished' });
  });

  it('§11 a custom_title (/rename, or the auto title) names the session; a cron prompt or notification opens a turn but never names it', async () => {
    const titled = lines(
      ...started,
      api(1),
      assistant(1.1, 'Done.'),
      JSON.stringify({
        uuid: 't',
        sessionId: SESSION,
        timestamp: iso(2),
        type: 'system',
        subtype: 'custom_title',
        systemPayload: { customTitle: 'Tests for the parser', titleSource: 'auto' },
      }),
    );
    expect((await rowOf(root(titled), at(10))).title).toBe('Tests for the parser');
    const cron = lines(
      JSON.stringify({
        uuid: 'c',
        sessionId: SESSION,
        timestamp: iso(0),
        type: 'user',
        subtype: 'cron',
        provenance: 'system',
        cwd: '/home/dev/app',
        message: { role: 'user', parts: [{ text: 'check the build' }] },
      }),
    );
    const row = await rowOf(root(cron), at(2));
    expect(row.observed).toMatchObject({ state: 'running', reason: 'turn-open' });
    expect(row.title).toBeNull();
  });

  it('§11 in a long session the title still comes from its start: the automatic title after the first answer, else the first prompt', async () => {
    const turns = Array.from({ length: 120 }, (_, index) => [
      prompt(10 + index * 3, `turn ${index} ${'x'.repeat(200)}`),
      api(11 + index * 3),
      assistant(11.1 + index * 3, 'Done.'),
    ]).flat();
    const title = system(2, 'custom_title', { customTitle: 'Tests for the parser', titleSource: 'auto' });
    const start = [prompt(0, 'first words'), api(1), assistant(1.1, 'Done.')];
    expect(lines(...start, title, ...turns).length).toBeGreaterThan(64 * 1024);
    expect((await rowOf(root(lines(...start, title, ...turns)), at(500))).title).toBe('Tests for the parser');
    expect((await rowOf(root(lines(...start, ...turns)), at(500))).title).toBe('first words');
    // A /rename late in the session, where the end holds it.
    const renamed = lines(...start, title, ...turns, system(380, 'custom_title', { customTitle: 'Renamed', titleSource: 'manual' }));
    expect((await rowOf(root(renamed), at(500))).title).toBe('Renamed');
  });

  it("§11 an ACP session's turn_result says how each turn ended: completed, cancelled, error", async () => {
    const outcome = (state: string, extra: Record<string, unknown> = {}) =>
      lines(
        ...started,
        JSON.stringify({
          uuid: 'r',
          sessionId: SESSION,
          timestamp: iso(5),
          type: 'system',
          subtype: 'turn_result',
          systemPayload: { promptId: `${SESSION}########0`, state, endedAt: at(5), ...extra },
        }),
      );
    expect((await rowOf(root(outcome('completed')), at(6))).observed).toMatchObject({ state: 'idle', reason: 'turn-finished' });
    expect((await rowOf(root(outcome('cancelled')), at(6))).observed).toMatchObject({ state: 'idle', reason: 'interrupted' });
    expect((await rowOf(root(outcome('error', { error: { message: 'quota exceeded' } })), at(6))).observed).toMatchObject({
      state: 'error',
      detail: 'quota exceeded',
    });
  });

  it("R7 runtime.json: a live pid that started before the file is alive; one started after it was reused; another machine's is not judged; none is unreported", async () => {
    const text = lines(...started, api(1), assistant(1.1, 'Done.'));
    const now = Date.now();
    const alive = await new QwenProvider(root(text, { runtime: { pid: process.pid, started_at: now / 1000 } })).sync(now);
    expect(alive[0]?.liveness).toEqual({ kind: 'alive', pid: process.pid });
    const reused = await new QwenProvider(root(text, { runtime: { pid: process.pid, started_at: 1 } })).sync(now);
    expect(reused[0]?.liveness).toMatchObject({ kind: 'dead', why: 'pid-reused', source: 'qwen.runtime' });
    const elsewhere = await new QwenProvider(root(text, { runtime: { pid: 2_147_483_646, hostname: `${hostname()}-other` } })).sync(now);
    expect(elsewhere[0]?.liveness).toEqual({ kind: 'unreported' });
    const none = await new QwenProvider(root(text)).sync(now);
    expect(none[0]?.liveness).toEqual({ kind: 'unreported' });
    // A file Qwen itself would not read (another schema) says nothing either.
    const other = await new QwenProvider(root(text, { runtime: { schema_version: 2, pid: 2_147_483_646 } })).sync(now);
    expect(other[0]?.liveness).toEqual({ kind: 'unreported' });
  });

  it('discovery: the prompt ledger beside a chat and the archive folder are not sessions; a FIFO named like a runtime file is passed over, not waited on', async () => {
    const folder = root(lines(...started), {
      files: { [`chats/${SESSION}.ledger.jsonl`]: '{"v":1}\n', [`chats/archive/${SESSION.replace('1', '2')}.jsonl`]: lines(...started) },
    });
    const chats = join(folder, 'projects', '-home-dev-app', 'chats');
    expect(spawnSync('mkfifo', [join(chats, `${SESSION}.runtime.json`)]).status).toBe(0);
    const provider = new QwenProvider(folder);
    const evidence = await provider.sync(at(2));
    expect(evidence.map((item) => [item.sessionId, item.liveness.kind])).toEqual([[SESSION, 'unreported']]);
  });
});

describe('Qwen Code through the command line', () => {
  it('QWEN_HOME names the folder; `lookout status --json` shows the row', () => {
    const folder = root(lines(prompt(0, 'add a test'), api(1), call(1.1, 'c1', 'run_shell_command', { command: 'npm test' })));
    expect(resolveRoots({ HOME: '/home/me', QWEN_HOME: folder }).qwen).toBe(folder);
    expect(resolveRoots({ HOME: '/home/me' }).qwen).toBe('/home/me/.qwen');
    const result = runCli(['status', '--json', '--all', '--now', iso(30)], {
      HOME: join(base, 'nobody'),
      LOOKOUT_HOME: join(base, 'lookout-cli'),
      QWEN_HOME: folder,
    });
    expect(result.code, result.stderr).toBe(0);
    const rows = (JSON.parse(result.stdout) as { sessions: Row[] }).sessions.filter((row) => row.provider === 'qwen');
    expect(rows.map((row) => [row.key, row.observed.state, row.observed.reason, row.observed.detail])).toEqual([
      [`qwen:${SESSION}`, 'unknown', 'tool-pending', 'run_shell_command: npm test'],
    ]);
  });

  it('QWEN_RUNTIME_DIR moves the sessions (its projects) out of QWEN_HOME, as 0.24.4 resolves it; a leading ~ is the home', () => {
    const runtime = root(lines(prompt(0, 'add a test'), api(1), call(1.1, 'c1', 'run_shell_command', { command: 'npm test' })));
    expect(resolveRoots({ HOME: '/home/me', QWEN_HOME: '~/qwen-config' }).qwen).toBe(join('/home/me', 'qwen-config'));
    const result = runCli(['status', '--json', '--all', '--now', iso(30)], {
      HOME: join(base, 'nobody'),
      LOOKOUT_HOME: join(base, 'lookout-rt'),
      QWEN_HOME: join(base, 'config-only'),
      QWEN_RUNTIME_DIR: runtime,
    });
    expect(result.code, result.stderr).toBe(0);
    const rows = (JSON.parse(result.stdout) as { sessions: Row[] }).sessions.filter((row) => row.provider === 'qwen');
    expect(rows.map((row) => row.key)).toEqual([`qwen:${SESSION}`]);
  });
});
