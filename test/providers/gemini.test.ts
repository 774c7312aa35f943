// Gemini CLI read from its chat files (0.61.0): the real samples the CLI wrote on this machine
// (shared/real-samples/generated/gemini-cli, read where they lie, laid out in a temp root at test
// time), and small lines in the CLI's own shapes for what the samples lack.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Row, SessionEvidence } from '../../src/engine';
import { defaultSettings, emptyFacts, evaluate } from '../../src/engine';
import { GeminiChat, UNNAMED_CALL } from '../../src/providers/gemini/chat';
import { GeminiProvider } from '../../src/providers/gemini/provider';
import { geminiFolders, isGeminiCommand } from '../../src/providers/gemini/processes';
import { resolveRoots } from '../../src/providers';
import { parseRecord } from '../../src/providers/jsonl/parse-record';
import { TailedFile } from '../../src/providers/tailed-file';
import { DEFAULT_TAIL_OPTIONS } from '../../src/providers/tailed-file';

const SAMPLES = resolve(__dirname, '../../../shared/real-samples/generated/gemini-cli');
const present = existsSync(SAMPLES);
if (!present) console.log(`Gemini CLI real-sample tests skipped: ${SAMPLES} is not here`);

const base = mkdtempSync(join(tmpdir(), 'lookout-gemini-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** The session's folder: a real one, as the processes' folders are compared by real path. */
const PROJECT = realpathSync(mkdtempSync(join(base, 'project-')));
let roots = 0;

/** A .gemini root holding one chat file in a project folder named as projects.json does. */
function root(text: string, extra: { marker?: boolean; children?: Record<string, string> } = {}): { root: string; file: string } {
  roots += 1;
  const folder = join(base, `root-${roots}`);
  const project = join(folder, 'tmp', 'app');
  mkdirSync(join(project, 'chats'), { recursive: true });
  if (extra.marker !== false) writeFileSync(join(project, '.project_root'), PROJECT);
  writeFileSync(join(folder, 'projects.json'), JSON.stringify({ projects: { [PROJECT]: 'app' } }));
  const file = join(project, 'chats', 'session-2026-12-01T13-31-08890390.jsonl');
  writeFileSync(file, text);
  for (const [name, child] of Object.entries(extra.children ?? {})) {
    mkdirSync(join(project, 'chats', SESSION), { recursive: true });
    writeFileSync(join(project, 'chats', SESSION, name), child);
  }
  return { root: folder, file };
}

const sample = (name: string): string => readFileSync(join(SAMPLES, name), 'utf8');

/** Folders where a Gemini CLI runs: this project's, or none. */
const runningHere = (): Set<string> => new Set([PROJECT]);
const runningNowhere = (): Set<string> => new Set();

async function evidenceOf(
  text: string,
  now: number,
  running: () => Set<string> | null = runningHere,
  extra: { marker?: boolean; children?: Record<string, string> } = {},
): Promise<SessionEvidence[]> {
  return new GeminiProvider(root(text, extra).root, undefined, undefined, running).sync(now);
}

async function rowOf(text: string, now: number, running: () => Set<string> | null = runningHere): Promise<Row> {
  const evidence = await evidenceOf(text, now, running);
  const row = evaluate({ sessions: evidence, facts: emptyFacts(), settings: defaultSettings(), now, onScreen: null }).snapshot.sessions[0];
  if (row === undefined) throw new Error('no row');
  return row;
}

/** The CLI's own lines, with times in seconds after T0. */
const T0 = Date.parse('2026-12-01T13:31:51.330Z');
const iso = (seconds: number): string => new Date(T0 + seconds * 1000).toISOString();
const SESSION = '08890390-764a-428b-8d86-34fc1c1b00ee';
const HEAD = JSON.stringify({ sessionId: SESSION, projectHash: 'ab', startTime: iso(0), lastUpdated: iso(0), kind: 'main' });
const CONTEXT = JSON.stringify({
  $set: {
    messages: [{ id: 'ctx', timestamp: iso(0), type: 'user', content: [{ text: '<session_context>\nThis is the Gemini CLI.\n</session_context>' }] }],
    lastUpdated: iso(0),
  },
});
const touched = (seconds: number): string => JSON.stringify({ $set: { lastUpdated: iso(seconds) } });
const user = (id: string, seconds: number, text: string): string => JSON.stringify({ id, timestamp: iso(seconds), type: 'user', content: [{ text }] });
const model = (id: string, seconds: number, content: unknown, extra: Record<string, unknown> = {}): string =>
  JSON.stringify({
    id,
    timestamp: iso(seconds),
    type: 'gemini',
    content,
    thoughts: [],
    tokens: { input: 12, output: 5, total: 17 },
    model: 'gemini-3.8-flash',
    ...extra,
  });
const call = (seconds: number, command: string) => ({
  id: `run_shell_command_${seconds}`,
  name: 'run_shell_command',
  args: { command },
  result: [{ functionResponse: { id: `run_shell_command_${seconds}`, name: 'run_shell_command', response: { output: 'ok' } } }],
  status: 'success',
  timestamp: iso(seconds),
});
const result = (id: string, seconds: number): string =>
  JSON.stringify({
    id,
    timestamp: iso(seconds),
    type: 'user',
    content: [{ functionResponse: { id: 'x', name: 'run_shell_command', response: { output: 'ok' } } }],
  });
const info = (id: string, seconds: number, text: string): string => JSON.stringify({ id, timestamp: iso(seconds), type: 'info', content: text });
const error = (id: string, seconds: number, text: string): string => JSON.stringify({ id, timestamp: iso(seconds), type: 'error', content: text });
const history = (seconds: number, ids: string[]): string =>
  JSON.stringify({ $set: { messages: ids.map((id) => ({ id, timestamp: iso(0), type: 'user', content: [{ text: id }] })), lastUpdated: iso(seconds) } });
const lines = (...items: string[]): string => `${items.join('\n')}\n`;
const at = (seconds: number): number => T0 + seconds * 1000;

const FINISHED = [
  HEAD,
  CONTEXT,
  user('p1', 9, 'please TOOL now'),
  touched(9),
  model('g1', 9.1, ''),
  touched(9.1),
  model('g1', 9.1, '', { toolCalls: [call(10, 'echo probe')] }),
  result('r1', 10.3),
  touched(10.3),
  model('g2', 10.5, 'Tool finished; all done.'),
  touched(10.5),
];

describe.skipIf(!present)('Gemini CLI 0.61.0, its real chat files (shared/real-samples)', () => {
  const now = (text: string, seconds: number): number => {
    const times = text
      .split('\n')
      .flatMap((line) => (line.trim() === '' ? [] : [parseRecord(line)?.timestamp]))
      .filter((value): value is string => typeof value === 'string');
    return Math.max(...times.map((value) => Date.parse(value))) + seconds * 1000;
  };

  it('headless "hi": its answer last, titled by its prompt, keyed by the full session id of its first line; the run over (no CLI there): ended', async () => {
    const text = readFileSync(join(SAMPLES, 'headless', 'session-2026-12-01T13-29-014fa13a.jsonl'), 'utf8');
    const row = await rowOf(text, now(text, 5), runningNowhere);
    expect(row).toMatchObject({
      key: 'gemini:014fa13a-719e-48b9-898d-00e914af8c27',
      title: 'hi',
      cwd: PROJECT,
      observed: { state: 'ended', reason: 'process-gone' },
    });
    // Text last while a Gemini CLI runs there: answer or words before a waiting call, the file cannot tell.
    expect((await rowOf(text, now(text, 5))).observed).toMatchObject({ state: 'unknown', reason: 'no-evidence' });
  });

  it('headless --yolo with a shell call: the call written once done, then the answer; a CLI there: unknown (no claim), never finished', async () => {
    const text = readFileSync(join(SAMPLES, 'headless', 'session-2026-12-01T13-29-fe6e4a68.jsonl'), 'utf8');
    const row = await rowOf(text, now(text, 5));
    expect(row.observed).toMatchObject({ state: 'unknown', reason: 'no-evidence' });
    expect(row.claim).toBeNull();
  });

  it('R3 awaiting-approval.jsonl: the empty `gemini` record is a call pending: running at first, then "may be waiting" (unknown), never waiting nor finished', async () => {
    const text = sample('awaiting-approval.jsonl');
    const fresh = await rowOf(text, now(text, 2));
    expect(fresh.observed).toMatchObject({ state: 'running', reason: 'tool-running' });
    const later = await rowOf(text, now(text, 60));
    expect(later.observed).toMatchObject({ state: 'unknown', reason: 'tool-pending', detail: UNNAMED_CALL });
    expect(later.claim?.ambiguous).toBe(true);
    // Long after, still only "may be waiting": never running for ever, never waiting.
    expect((await rowOf(text, now(text, 40 * 60))).observed.state).toBe('unknown');
  });

  it('R8 after-esc.jsonl: a cancel written 8 ms before its prompt, the prompt dropped by the next $set: interrupted', async () => {
    const text = sample('after-esc.jsonl');
    const row = await rowOf(text, now(text, 5));
    expect(row.observed).toMatchObject({ state: 'idle', reason: 'interrupted' });
    expect(row.claim).toBeNull();
  });

  it('R8 the same, read cold from a window that starts at the cancelled prompt (the cancel before it is kept)', async () => {
    const text = sample('after-esc.jsonl');
    const { file } = root(text);
    // A first window that starts at the line before the cancel: the prompt and the `$set` after it, and the cancel.
    const from = text.lastIndexOf('\n', text.indexOf('"Request cancelled."') - 1) - 200;
    const tailed = new TailedFile(file, () => new GeminiChat(), { ...DEFAULT_TAIL_OPTIONS, firstWindow: Buffer.byteLength(text.slice(from)) });
    tailed.load();
    expect(tailed.tailFrom).toBeGreaterThan(0);
    expect(tailed.tail.signal?.kind).toBe('interrupted');
  });

  it('streaming.jsonl: a prompt with no answer yet is running (turn open)', async () => {
    const text = sample('streaming.jsonl');
    expect((await rowOf(text, now(text, 5))).observed).toMatchObject({ state: 'running', reason: 'turn-open' });
  });

  it('R5 after-err.jsonl: a model failing and retried writes nothing: running while its CLI runs, never finished', async () => {
    const text = sample('after-err.jsonl');
    const row = await rowOf(text, now(text, 60));
    expect(row.observed).toMatchObject({ state: 'running', reason: 'turn-open' });
    expect(row.claim?.kind).not.toBe('finished');
  });

  it('R7 headless "ERR please": the run crashed on the 500 with its prompt open; no Gemini CLI runs there: ended', async () => {
    const text = readFileSync(join(SAMPLES, 'headless', 'session-2026-12-01T13-29-540a2b05.jsonl'), 'utf8');
    const row = await rowOf(text, now(text, 60), runningNowhere);
    expect(row.observed).toMatchObject({ state: 'ended', reason: 'process-gone', source: 'gemini.process' });
  });

  it('R8 after-quit.jsonl: the retried ERR turn cancelled at last (Esc): interrupted; /quit wrote nothing', async () => {
    const text = sample('after-quit.jsonl');
    expect((await rowOf(text, now(text, 5), runningNowhere)).observed).toMatchObject({ state: 'idle', reason: 'interrupted' });
  });
});

describe('Gemini CLI, lines in its own shapes', () => {
  it('text last while a Gemini CLI runs: the answer, or words before a call awaiting approval (written alike): unknown, no claim, never idle', async () => {
    const text = lines(...FINISHED);
    for (const seconds of [11, 20, 600]) {
      const row = await rowOf(text, at(seconds));
      expect(row).toMatchObject({ title: 'please TOOL now', observed: { state: 'unknown', reason: 'no-evidence' }, claim: null });
    }
    // The preamble the lab measured: the same record, the same `$set` after it, while the dialog is up.
    const preamble = lines(HEAD, user('p1', 1, 'make the file'), touched(1), model('g1', 1.05, "I'll create the file."), touched(1.05));
    expect((await rowOf(preamble, at(8))).observed).toMatchObject({ state: 'unknown', reason: 'no-evidence' });
    // The call approved and done: written back onto that record, the turn goes on.
    const ran = lines(
      HEAD,
      user('p1', 1, 'make the file'),
      model('g1', 1.05, "I'll create the file."),
      model('g1', 1.05, "I'll create the file.", { toolCalls: [call(7, 'touch pre.txt')] }),
    );
    expect((await rowOf(ran, at(8))).observed).toMatchObject({ state: 'running', reason: 'turn-open' });
  });

  it('a call written back once done is a tool result: the turn goes on (running)', async () => {
    const text = lines(HEAD, CONTEXT, user('p1', 1, 'run it'), model('g1', 2, ''), model('g1', 2, '', { toolCalls: [call(30, 'npm test')] }));
    const row = await rowOf(text, at(31));
    expect(row.observed).toMatchObject({ state: 'running', reason: 'turn-open', at: iso(30) });
  });

  it('text before a call, and the call written once done: running again until the answer', async () => {
    const text = lines(
      HEAD,
      user('p1', 1, 'go'),
      model('g1', 2, 'I will run it.'),
      model('g1', 2, 'I will run it.', { toolCalls: [call(8, 'touch t')] }),
      result('r1', 8.1),
    );
    expect((await rowOf(text, at(9))).observed.state).toBe('running');
  });

  it('R5 an error record inside a turn (the CLI gave up): error/api-error; one between turns changes nothing', async () => {
    const failed = await rowOf(
      lines(
        HEAD,
        user('p1', 1, 'go'),
        error('e1', 3, '[API Error: {"error":{"code":400,"message":"lab bad request"}}]'),
        info('i1', 3, 'This request failed. Press F12 for diagnostics.'),
      ),
      at(10),
    );
    expect(failed.observed).toMatchObject({ state: 'error', reason: 'api-error' });
    expect(failed.observed.detail).toContain('API Error');
    expect(failed.claim?.kind).toBe('failed');
    const between = await evidenceOf(lines(...FINISHED, error('e2', 30, 'Unknown command: /foo')), at(40), () => null);
    expect(between[0]?.signal).toBeNull();
  });

  it("R5 the CLI's failure note with no error record before it (a hook blocked the agent): error/api-error in the words before it; after an error it adds nothing", async () => {
    const warning = JSON.stringify({ id: 'w1', timestamp: iso(3), type: 'warning', content: 'Agent execution blocked: policy says no' });
    const blocked = await evidenceOf(
      lines(
        HEAD,
        user('p1', 1, 'go'),
        warning,
        info('i1', 3, 'This request failed. Press F12 for diagnostics, or run /settings and change "Error Verbosity" to full for full details.'),
      ),
      at(10),
    );
    expect(blocked[0]?.signal).toEqual({ kind: 'api-error', at: at(3), detail: 'Agent execution blocked: policy says no' });
    const failed = await evidenceOf(
      lines(HEAD, user('p1', 1, 'go'), error('e1', 3, '[API Error: lab bad request]'), info('i1', 3, 'This request failed. Press F12 for diagnostics.')),
      at(10),
    );
    expect(failed[0]?.signal).toMatchObject({ kind: 'api-error', detail: '[API Error: lab bad request]' });
  });

  it('R80 a quota the CLI gave up on (its 429 notice, its daily-quota words): limited, resetting only where the record gives a delay', async () => {
    const NOTICE = '\nPlease wait and try again later. To increase your limits, request a quota increase through AI Studio, or switch to another /auth method';
    const daily = await rowOf(
      lines(
        HEAD,
        user('p1', 1, 'go'),
        error('e1', 3, `[API Error: You have exhausted your daily quota on this model.]${NOTICE}`),
        info('i1', 3, 'This request failed. Press F12 for diagnostics.'),
      ),
      at(10),
    );
    expect(daily.observed).toMatchObject({ state: 'limited', reason: 'usage-limit', source: 'gemini.chat' });
    expect(daily.observed.detail).toContain('exhausted your daily quota');
    const delayed = await evidenceOf(
      lines(HEAD, user('p1', 1, 'go'), error('e1', 3, `[API Error: Resource has been exhausted (e.g. check quota).\nSuggested retry after 3600s.]${NOTICE}`)),
      at(10),
    );
    expect(delayed[0]?.signal).toMatchObject({ kind: 'usage-limit', at: at(3), resetsAt: at(3 + 3600) });
    // Another failure is an error; the same words typed by the user, or between turns, are no limit.
    expect(
      (await evidenceOf(lines(HEAD, user('p1', 1, 'go'), error('e1', 3, '[API Error: lab model down (Status: INTERNAL)]')), at(10)))[0]?.signal?.kind,
    ).toBe('api-error');
    expect((await evidenceOf(lines(HEAD, user('p1', 1, `why "You have exhausted your daily quota"?${NOTICE}`)), at(2)))[0]?.signal?.kind).toBe('prompt');
    expect(
      (await evidenceOf(lines(HEAD, user('p1', 1, 'go'), info('i1', 2, 'Request cancelled.'), error('e1', 3, `[API Error: x]${NOTICE}`)), at(10)))[0]?.signal
        ?.kind,
    ).toBe('interrupted');
  });

  it('R8 a cancel after the prompt: interrupted; a new prompt opens the next turn', async () => {
    const cancelled = [HEAD, user('p1', 1, 'SLOW please'), info('i1', 6, 'Request cancelled.'), history(6, ['ctx'])];
    expect((await rowOf(lines(...cancelled), at(10))).observed).toMatchObject({ state: 'idle', reason: 'interrupted' });
    const evidence = await evidenceOf(lines(...cancelled, user('p2', 20, 'again')), at(21));
    expect(evidence[0]?.interruptedTurns).toEqual([{ startedAt: at(1), endedAt: at(6) }]);
    expect(evidence[0]?.signal).toEqual({ kind: 'prompt', at: at(20) });
  });

  it("R8 an approval denied (Esc at the prompt): the call written back cancelled, then the cancel: interrupted; the CLI's new session context is no prompt", async () => {
    const denied = { ...call(4, 'touch no.txt'), status: 'cancelled' };
    const context = JSON.stringify({
      id: 'ctx2',
      timestamp: iso(5.1),
      type: 'user',
      content: [{ text: '<session_context>\nThis is the Gemini CLI.\n</session_context>' }],
    });
    const text = lines(
      HEAD,
      user('p1', 1, 'make it'),
      model('g1', 2, ''),
      model('g1', 2, '', { toolCalls: [denied] }),
      info('i1', 5, 'Request cancelled.'),
      context,
      history(5.2, ['ctx2']),
    );
    expect((await rowOf(text, at(10))).observed).toMatchObject({ state: 'idle', reason: 'interrupted' });
  });

  it('R8 a cancel written just before its prompt, in a file read whole (its first prompt kept for the title): interrupted', async () => {
    const text = lines(
      ...FINISHED,
      info('i1', 30, 'Request cancelled.'),
      touched(30),
      user('p2', 30.008, 'SLOW please'),
      touched(30.008),
      history(30.01, ['ctx', 'p1', 'g1', 'r1', 'g2']),
    );
    const evidence = await evidenceOf(text, at(40));
    expect(evidence[0]?.signal?.kind).toBe('interrupted');
    expect((await rowOf(text, at(40))).observed).toMatchObject({ state: 'idle', reason: 'interrupted' });
  });

  it('a cancel just before a prompt the history keeps is no interrupt (the prompt went on)', async () => {
    const text = lines(...FINISHED, info('i1', 30, 'Request cancelled.'), user('p2', 30.01, 'next'), history(30.02, ['ctx', 'p2']));
    expect((await rowOf(text, at(31))).observed).toMatchObject({ state: 'running', reason: 'turn-open' });
  });

  it('the CLI\'s own "Please continue." goes on with the turn: not a new turn, not the title', async () => {
    const text = lines(
      HEAD,
      user('p1', 1, 'first ask'),
      model('g1', 2, ''),
      model('g1', 2, '', { toolCalls: [call(3, 'ls')] }),
      result('r1', 3),
      user('p2', 4, 'Please continue.'),
    );
    const evidence = await evidenceOf(text, at(5));
    expect(evidence[0]).toMatchObject({ title: 'first ask', turn: { startedAt: at(1) }, signal: { kind: 'progress' } });
  });

  it('a rewind ($rewindTo) leaves the user at the prompt: no turn runs, and no finish is claimed', async () => {
    const text = lines(...FINISHED, user('p2', 30, 'oops'), touched(30), JSON.stringify({ $rewindTo: 'p2' }));
    const row = await rowOf(text, at(40));
    expect(row.observed).toMatchObject({ state: 'idle', reason: 'turn-finished' });
    expect(row.claim).toBeNull();
  });

  it("the CLI's summary ($set.summary) titles the session", async () => {
    const text = lines(...FINISHED, JSON.stringify({ $set: { summary: 'Probe the shell' } }));
    expect((await rowOf(text, at(20))).title).toBe('Probe the shell');
  });

  it('R7 a turn left open where no Gemini CLI runs: ended (process-gone); a finished one stays finished', async () => {
    const open = lines(HEAD, user('p1', 1, 'go'));
    expect((await rowOf(open, at(5), runningHere)).observed.state).toBe('running');
    expect((await rowOf(open, at(5), runningNowhere)).observed).toMatchObject({ state: 'ended', reason: 'process-gone', source: 'gemini.process' });
    // No /proc to ask (macOS): nothing can be told.
    expect((await rowOf(open, at(5), () => null)).observed.state).toBe('running');
    // Text last and no CLI: the user quit it (as a registry's pid gone reads for other agents).
    expect((await rowOf(lines(...FINISHED), at(20), runningHere)).observed).toMatchObject({ state: 'unknown', reason: 'no-evidence' });
    expect((await rowOf(lines(...FINISHED), at(20), runningNowhere)).observed).toMatchObject({ state: 'ended', reason: 'process-gone' });
    // An interrupt or an error closes the turn: nothing is left open for a gone CLI to end.
    expect((await rowOf(lines(HEAD, user('p1', 1, 'go'), info('i1', 2, 'Request cancelled.')), at(5), runningNowhere)).observed).toMatchObject({
      state: 'idle',
      reason: 'interrupted',
    });
  });

  it('the folder comes from .project_root, else from projects.json; a folder unknown is never judged gone', async () => {
    const text = lines(HEAD, user('p1', 1, 'go'));
    const fromRegistry = await evidenceOf(text, at(2), runningNowhere, { marker: false });
    expect(fromRegistry[0]?.cwd).toBe(PROJECT);
    const { root: unknown } = root(text, { marker: false });
    writeFileSync(join(unknown, 'projects.json'), '{"projects":{}}');
    const evidence = await new GeminiProvider(unknown, undefined, undefined, runningNowhere).sync(at(2));
    expect(evidence[0]).toMatchObject({ cwd: null, liveness: { kind: 'unreported' } });
  });

  it('R11 a subagent\'s chat (chats/<parent id>/<id>.jsonl, kind "subagent") is a child, and the lead\'s unnamed call is its launch', async () => {
    const child = lines(
      JSON.stringify({ sessionId: 'sub-1', projectHash: 'ab', startTime: iso(3), lastUpdated: iso(3), kind: 'subagent' }),
      user('c1', 3, 'Look around the repo'),
      model('c2', 4, ''),
    );
    const text = lines(HEAD, user('p1', 1, 'investigate'), model('g1', 2, ''));
    const evidence = await evidenceOf(text, at(60), runningHere, { children: { 'sub-1.jsonl': child } });
    expect(evidence).toHaveLength(1);
    expect(evidence[0]?.children).toMatchObject([{ id: 'sub-1', name: 'Look around the repo', role: 'agent', source: 'gemini.chat', startedAt: at(3) }]);
    const row = evaluate({ sessions: evidence, facts: emptyFacts(), settings: defaultSettings(), now: at(60), onScreen: null }).snapshot.sessions[0];
    expect(row?.observed).toMatchObject({ state: 'running', reason: 'tool-running' });
  });

  it('a chat whose first line is not written yet names no session; an older whole-file .json chat is not read', async () => {
    const { root: folder } = root('');
    writeFileSync(join(folder, 'tmp', 'app', 'chats', 'session-2025-01-01T10-00-aaaaaaaa.json'), JSON.stringify({ sessionId: 'old', messages: [] }));
    expect(await new GeminiProvider(folder, undefined, undefined, runningHere).sync(at(1))).toEqual([]);
  });

  it.skipIf(process.platform === 'win32')(
    'hostile files: a FIFO as .project_root or as a chat never blocks; it is refused and said, the session read all the same',
    async () => {
      const text = lines(HEAD, user('p1', 1, 'go'));
      const { root: folder } = root(text, { marker: false });
      const project = join(folder, 'tmp', 'app');
      execFileSync('mkfifo', [join(project, '.project_root')]);
      execFileSync('mkfifo', [join(project, 'chats', 'session-2026-12-01T13-40-fifo0000.jsonl')]);
      writeFileSync(join(folder, 'projects.json'), '{"projects":{}}');
      const provider = new GeminiProvider(folder, undefined, undefined, runningNowhere);
      const evidence = await provider.sync(at(2));
      expect(evidence.map((item) => item.sessionId)).toEqual([SESSION]);
      // Its folder unknown: never judged gone.
      expect(evidence[0]).toMatchObject({ cwd: null, liveness: { kind: 'unreported' } });
      expect(provider.problems.drain().map((problem) => problem.detail)).toContain('ENOTREG');
    },
  );

  it('appends are read incrementally: the same provider follows a turn to its end', async () => {
    const { root: folder, file } = root(lines(HEAD, user('p1', 1, 'go')));
    const provider = new GeminiProvider(folder, undefined, undefined, runningHere);
    expect((await provider.sync(at(2)))[0]?.signal?.kind).toBe('prompt');
    writeFileSync(file, lines(HEAD, user('p1', 1, 'go'), model('g1', 3, 'Done.')));
    // Text last: answer or preamble, handed on as no signal while the CLI runs.
    const settled = await provider.sync(at(4));
    expect(settled[0]?.signal).toBeNull();
    expect(settled[0]?.turn).toMatchObject({ startedAt: at(1), endedAt: at(3) });
    expect(await provider.sync(at(5))).toBe(settled);
  });
});

describe('Gemini CLI: where it lives and whether it runs', () => {
  it('GEMINI_CLI_HOME names the home whose .gemini is read; without it, ~/.gemini', () => {
    expect(resolveRoots({ HOME: '/home/me', GEMINI_CLI_HOME: '/srv/gem' }).gemini).toBe(join('/srv/gem', '.gemini'));
    expect(resolveRoots({ HOME: '/home/me' }).gemini).toBe(join('/home/me', '.gemini'));
    expect(resolveRoots({ HOME: '/home/me', GEMINI_CLI_HOME: ' ' }, { gemini: '/chosen/.gemini' }).gemini).toBe('/chosen/.gemini');
  });

  it('its process is told by its program: the bin, the bundle, the package (node first or not); nothing else', () => {
    expect(isGeminiCommand(['node', '/usr/local/bin/gemini'])).toBe(true);
    expect(isGeminiCommand(['/usr/bin/node', '--max-old-space-size=8192', '/opt/lib/node_modules/@google/gemini-cli/bundle/gemini.js'])).toBe(true);
    expect(isGeminiCommand(['node', '/usr/lib/node_modules/@google/gemini-cli/dist/index.js'])).toBe(true);
    expect(isGeminiCommand(['gemini', '--resume', 'latest'])).toBe(true);
    expect(isGeminiCommand(['node', '/usr/local/bin/qwen'])).toBe(false);
    expect(isGeminiCommand(['vim', 'notes/gemini-ideas.md'])).toBe(false);
  });

  it.skipIf(!existsSync('/proc'))('R7 /proc: a process running a gemini.js in a folder is found there, and gone once it ends', async () => {
    const folder = realpathSync(mkdtempSync(join(base, 'running-')));
    const bundle = join(mkdtempSync(join(base, 'bundle-')), 'gemini.js');
    writeFileSync(bundle, 'setInterval(() => {}, 1000);\n');
    const child = spawn(process.execPath, [bundle], { cwd: folder, stdio: 'ignore' });
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', reject);
    });
    expect(geminiFolders()?.has(folder)).toBe(true);
    const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    if (child.pid !== undefined) process.kill(child.pid, 'SIGKILL');
    await gone;
    expect(geminiFolders()?.has(folder)).toBe(false);
  });
});
