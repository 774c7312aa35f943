// Pi read passively (issue 50): its session JSONL in the shapes 0.73.1 wrote in the live lab (the
// lab's recordings are read in live-recordings.test.ts), and the readings its retry rule and
// extensions call for. Liveness: the folders Pi processes run in, a stand-in set here.
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Row } from '../../src/engine';
import { defaultSettings, emptyFacts, evaluate } from '../../src/engine';
import { findProvider } from '../../src/providers';
import { LOOKOUT_EXTENSION, piSetup } from '../../src/providers/pi/agent-settings';
import { piProcessKind } from '../../src/providers/pi/processes';
import { PiProvider } from '../../src/providers/pi/provider';
import { DEFAULT_RETRY, errorOutcome } from '../../src/providers/pi/retries';

const base = mkdtempSync(join(tmpdir(), 'lookout-pi-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const T0 = Date.parse('2026-12-05T05:26:00.000Z');
const iso = (seconds: number): string => new Date(T0 + seconds * 1000).toISOString();
/** The session's folder: one that exists, so the writer check can name it as the kernel does. */
const CWD = realpathSync(base);

let entry = 0;
/** Entries chained by parentId, as Pi appends them: each hangs off the one before. */
function chain(...entries: Record<string, unknown>[]): string[] {
  let parent: string | null = null;
  return entries.map((fields) => {
    entry += 1;
    const id = typeof fields.id === 'string' ? fields.id : `e${String(entry).padStart(7, '0')}`;
    const line = JSON.stringify({ ...fields, id, parentId: 'parentId' in fields ? fields.parentId : parent });
    parent = id;
    return line;
  });
}

const HEADER = (id: string) => JSON.stringify({ type: 'session', version: 3, id, timestamp: iso(0), cwd: CWD });
const MODEL = { type: 'model_change', timestamp: iso(0), provider: 'lab', modelId: 'fake-model' };
const USAGE = { input: 10, output: 3, cacheRead: 0, cacheWrite: 0, totalTokens: 13, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
const PROMPT = (seconds: number, text = 'make the file') => ({
  type: 'message',
  timestamp: iso(seconds),
  message: { role: 'user', content: [{ type: 'text', text }], timestamp: T0 + seconds * 1000 },
});
const ASSISTANT = (seconds: number, content: Record<string, unknown>[], stopReason: string, errorMessage?: string) => ({
  type: 'message',
  timestamp: iso(seconds),
  message: {
    role: 'assistant',
    content,
    api: 'openai-completions',
    provider: 'lab',
    model: 'fake-model',
    usage: USAGE,
    stopReason,
    timestamp: T0,
    ...(errorMessage === undefined ? {} : { errorMessage }),
  },
});
const TEXT = (seconds: number, text = 'Made it.') => ASSISTANT(seconds, [{ type: 'text', text }], 'stop');
const CALL = (seconds: number, id: string, command: string) => ASSISTANT(seconds, [{ type: 'toolCall', id, name: 'bash', arguments: { command } }], 'toolUse');
const RESULT = (seconds: number, id: string, text = '(no output)', isError = false) => ({
  type: 'message',
  timestamp: iso(seconds),
  message: { role: 'toolResult', toolCallId: id, toolName: 'bash', content: [{ type: 'text', text }], isError, timestamp: T0 },
});
const ERROR = (seconds: number, words: string) => ASSISTANT(seconds, [], 'error', words);
const ABORTED = (seconds: number) => ASSISTANT(seconds, [{ type: 'text', text: 'Thinking' }], 'aborted', 'Operation aborted');
const QUOTA = '429 You exceeded your current quota, please check your plan and billing details.';

let n = 0;
interface PiHome {
  root: string;
  id: string;
}

/** A Pi agent folder with one session: its header and entries, and optionally its settings.json. */
function home(entries: Record<string, unknown>[], settings?: Record<string, unknown>, extra: string[] = []): PiHome {
  n += 1;
  const root = join(base, `agent-${n}`);
  const folder = join(root, 'sessions', `--${CWD.replace(/^\//, '').replace(/\//g, '-')}--`);
  mkdirSync(folder, { recursive: true });
  const id = `01a244aa-6b49-7110-83c5-${String(n).padStart(12, '0')}`;
  writeFileSync(join(folder, `2026-12-05T05-26-00-000Z_${id}.jsonl`), `${[HEADER(id), ...chain(MODEL, ...entries), ...extra].join('\n')}\n`);
  if (settings !== undefined) writeFileSync(join(root, 'settings.json'), JSON.stringify(settings, null, 2));
  return { root, id };
}

const RUNNING = (): Set<string> => new Set([CWD]);
const NONE_RUNNING = (): Set<string> => new Set();

async function rows(root: string, seconds: number, running: () => Set<string> | null = RUNNING, sessions = join(root, 'sessions')): Promise<Row[]> {
  const now = T0 + seconds * 1000;
  const evidence = await new PiProvider(root, sessions, undefined, undefined, running).sync(now);
  return evaluate({ sessions: evidence, facts: emptyFacts(), settings: defaultSettings(), now, onScreen: null }).snapshot.sessions;
}

async function rowOf(root: string, seconds: number, running?: () => Set<string> | null): Promise<Row> {
  const [row] = await rows(root, seconds, running);
  if (row === undefined) throw new Error('no row');
  return row;
}

describe('Pi, read from its session files', () => {
  it('R1 a prompt opens a turn (running), named by its first prompt, in the header\'s folder; "stop" finishes it', async () => {
    const open = home([PROMPT(1)]);
    expect(await rowOf(open.root, 2)).toMatchObject({
      key: `pi:${open.id}`,
      title: 'make the file',
      cwd: CWD,
      observed: { state: 'running', reason: 'turn-open', source: 'pi.session' },
    });
    const done = home([PROMPT(1), TEXT(2)]);
    expect((await rowOf(done.root, 5)).observed).toMatchObject({ state: 'idle', reason: 'turn-finished', at: iso(2) });
    const cut = home([PROMPT(1), ASSISTANT(2, [{ type: 'text', text: 'and so' }], 'length')]);
    expect((await rowOf(cut.root, 5)).observed).toMatchObject({ state: 'idle', reason: 'turn-finished' });
  });

  it('R3 Pi never asks before a call: a pending call reads running past the grace, named by its command; its result answers it', async () => {
    const { root } = home([PROMPT(1), CALL(2, 'call_1', 'sleep 12 && touch pi-slow.txt')]);
    const row = await rowOf(root, 60);
    expect(row.observed).toMatchObject({ state: 'running', reason: 'tool-running', detail: 'bash: sleep 12 && touch pi-slow.txt' });
    expect(row.claim).toBeNull();
    const answered = home([PROMPT(1), CALL(2, 'call_1', 'ls'), RESULT(3, 'call_1')]);
    expect((await rowOf(answered.root, 60)).observed).toMatchObject({ state: 'running', reason: 'turn-open' });
  });

  it("R3 an extension of the person's may ask: with one in the agent's extensions folder, named in settings.json, or in the project's .pi, a pending call past the grace may be waiting; Lookout's own file does not count", async () => {
    const lines = [PROMPT(1), CALL(2, 'call_1', 'rm -rf scratch')];
    const folder = home(lines);
    mkdirSync(join(folder.root, 'extensions'), { recursive: true });
    writeFileSync(join(folder.root, 'extensions', LOOKOUT_EXTENSION), '// Lookout');
    expect((await rowOf(folder.root, 60)).observed.state).toBe('running');
    writeFileSync(join(folder.root, 'extensions', 'permission-gate.ts'), '// asks');
    const gated = await rowOf(folder.root, 60);
    expect(gated.observed).toMatchObject({ state: 'unknown', reason: 'tool-pending', detail: 'bash: rm -rf scratch' });
    expect(gated.claim?.kind).toBe('needs-you');
    const named = home(lines, { packages: ['npm:pi-permissions@1.0.0'] });
    expect((await rowOf(named.root, 60)).observed.state).toBe('unknown');
    expect(piSetup('{"extensions":[]}').namedExtensions).toBe(false);
  });

  it('R13 an error Pi does not retry (401) fails the turn at once, in its words', async () => {
    const { root } = home([PROMPT(1), ERROR(2, '401 lab: bad key')]);
    const row = await rowOf(root, 5);
    expect(row.observed).toMatchObject({ state: 'error', reason: 'api-error', detail: '401 lab: bad key', at: iso(2) });
    expect(row.claim?.kind).toBe('failed');
  });

  it('R13 an error Pi retries (500) keeps the turn running until the attempts are spent: 1 + retry.maxRetries (3 unless set)', async () => {
    const errors = (count: number) => Array.from({ length: count }, (_, index) => ERROR(2 + index, '500 lab: boom'));
    for (const count of [1, 2, 3]) {
      const { root } = home([PROMPT(1), ...errors(count)]);
      expect((await rowOf(root, 10)).observed, `${count} attempts`).toMatchObject({ state: 'running', reason: 'turn-open' });
    }
    const spent = home([PROMPT(1), ...errors(4)]);
    expect((await rowOf(spent.root, 10)).observed).toMatchObject({ state: 'error', reason: 'api-error', detail: '500 lab: boom', at: iso(5) });
    const fewer = home([PROMPT(1), ...errors(2)], { retry: { maxRetries: 1 } });
    expect((await rowOf(fewer.root, 10)).observed.state).toBe('error');
    const off = home([PROMPT(1), ...errors(1)], { retry: { enabled: false } });
    expect((await rowOf(off.root, 10)).observed.state).toBe('error');
    // A reply that comes through after a retry starts the count again.
    const recovered = home([PROMPT(1), ...errors(3), TEXT(6), PROMPT(7), ...errors(1)]);
    expect((await rowOf(recovered.root, 10)).observed.state).toBe('running');
    expect(errorOutcome('prompt is too long: 200000 tokens > 128000 maximum', 1, DEFAULT_RETRY)).toBe('compacting');
  });

  it("R80 a spent quota (429 insufficient_quota) reads limited once the retries are spent, in the provider's words, with no reset made up", async () => {
    const { root } = home([PROMPT(1), ERROR(2, QUOTA), ERROR(3, QUOTA), ERROR(5, QUOTA)]);
    expect((await rowOf(root, 6)).observed.state).toBe('running');
    const spent = home([PROMPT(1), ERROR(2, QUOTA), ERROR(3, QUOTA), ERROR(5, QUOTA), ERROR(9, QUOTA)]);
    const row = await rowOf(spent.root, 10);
    expect(row.observed).toMatchObject({ state: 'limited', reason: 'usage-limit', detail: QUOTA });
    expect(row.resetsAt ?? null).toBeNull();
    // A per-minute rate limit is no usage limit (R80).
    const slow = home([PROMPT(1), ...[2, 3, 5, 9].map((at) => ERROR(at, '429 Rate limit reached for requests'))]);
    expect((await rowOf(slow.root, 10)).observed).toMatchObject({ state: 'error', reason: 'api-error' });
  });

  it('§11 Escape: the assistant message saved with stopReason "aborted" reads idle/interrupted, also after an aborted command', async () => {
    const { root } = home([PROMPT(1), ABORTED(3)]);
    expect((await rowOf(root, 5)).observed).toMatchObject({ state: 'idle', reason: 'interrupted' });
    const tool = home([PROMPT(1), CALL(2, 'call_1', 'sleep 60'), RESULT(4, 'call_1', 'Command aborted', true), ABORTED(4)]);
    expect((await rowOf(tool.root, 5)).observed).toMatchObject({ state: 'idle', reason: 'interrupted' });
  });

  it('R7 a turn left open where no Pi runs any more reads ended (the writer gone); a finished one stays finished', async () => {
    const open = home([PROMPT(1), CALL(2, 'call_1', 'sleep 60')]);
    expect((await rowOf(open.root, 5, NONE_RUNNING)).observed).toMatchObject({ state: 'ended', reason: 'process-gone', source: 'pi.process' });
    const done = home([PROMPT(1), TEXT(2)]);
    expect((await rowOf(done.root, 5, NONE_RUNNING)).observed).toMatchObject({ state: 'idle', reason: 'turn-finished' });
  });

  it('a branch (/tree): the prompt that starts it, hung off an earlier entry, opens the turn that counts; the abandoned call is not pending', async () => {
    const lines = chain(MODEL, PROMPT(1), CALL(2, 'call_1', 'sleep 60'));
    const fork = JSON.stringify({ ...PROMPT(5, 'try another way'), id: 'branch01', parentId: JSON.parse(lines[1] ?? '{}').id });
    const { root } = home([], undefined, [...lines, fork, ...chain({ ...TEXT(6), parentId: 'branch01' })]);
    expect((await rowOf(root, 10)).observed).toMatchObject({ state: 'idle', reason: 'turn-finished' });
  });

  it('a name set with /name (session_info) is the title; a cleared name gives the first prompt back', async () => {
    const named = home([PROMPT(1), TEXT(2), { type: 'session_info', timestamp: iso(3), name: 'Badge colours' }]);
    expect((await rowOf(named.root, 5)).title).toBe('Badge colours');
    const cleared = home([
      PROMPT(1),
      TEXT(2),
      { type: 'session_info', timestamp: iso(3), name: 'Badge colours' },
      { type: 'session_info', timestamp: iso(4), name: '' },
    ]);
    expect((await rowOf(cleared.root, 5)).title).toBe('make the file');
  });

  it("sessions in a folder of the person's choosing (PI_CODING_AGENT_SESSION_DIR: files lie flat there) are read; malformed lines are skipped and counted", async () => {
    const { root, id } = home([PROMPT(1), TEXT(2)], undefined, ['{not json', '']);
    const flat = join(base, `flat-${n}`);
    mkdirSync(flat, { recursive: true });
    const source = join(root, 'sessions');
    const [folder = ''] = readdirSync(source);
    const [file = ''] = readdirSync(join(source, folder));
    copyFileSync(join(source, folder, file), join(flat, file));
    const [row] = await rows(root, 5, RUNNING, flat);
    expect(row).toMatchObject({ key: `pi:${id}`, observed: { state: 'idle', reason: 'turn-finished' } });
    const evidence = await new PiProvider(root, flat, undefined, undefined, RUNNING).sync(T0 + 5000);
    expect(evidence[0]?.skippedLines).toBe(1);
  });

  it("R7 Pi's process: it renames itself to `pi` (its whole command line); before that it is node running the package's cli.js", () => {
    expect(piProcessKind(['pi', '', '', ''])).toBe('agent');
    expect(piProcessKind(['node', '/usr/lib/node_modules/@mariozechner/pi-coding-agent/dist/cli.js', '--continue'])).toBe('agent');
    expect(piProcessKind(['node', '/srv/app.js'])).toBe('other');
    expect(piProcessKind(['/usr/bin/pip', 'install'])).toBe('other');
  });

  it('a sync with nothing changed hands out the very same array (the runtime skips the work downstream); a new extension is noticed', async () => {
    const { root } = home([PROMPT(1), CALL(2, 'call_1', 'rm -rf scratch')]);
    const provider = new PiProvider(root, join(root, 'sessions'), undefined, undefined, RUNNING);
    const first = await provider.sync(T0 + 60_000);
    expect(await provider.sync(T0 + 61_000)).toBe(first);
    mkdirSync(join(root, 'extensions'), { recursive: true });
    writeFileSync(join(root, 'extensions', 'permission-gate.ts'), '// asks');
    const later = await provider.sync(T0 + 62_000);
    expect(later).not.toBe(first);
    expect(later[0]?.signal).toMatchObject({ kind: 'tool-call', approvalPolicy: null });
  });

  it("open: `pi --session <id>` in the session's folder", () => {
    expect(findProvider('pi')?.resume('01a244aa-6b49')).toEqual(['pi', '--session', '01a244aa-6b49']);
  });
});
