// The popover host answering a prompt (§13, R70–R75) with a real runtime and channel, and the
// answering hook waiting on it in-process: a click allows at once, a key only after R72's grace,
// Deny carries its message, "Answer in terminal" lets go, and `lookout serve`'s page answers only
// when settings.json allows it. Every refusal comes back as the command's error.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Row, RowAnswer } from '../../../src/engine';
import { BROWSER_ANSWERS_OFF, PopoverHost } from '../../../src/main/popover/popover-host';
import { Runtime } from '../../../src/main/runtime/runtime';
import type { AnswerHome } from '../../popover/answer-fixture';
import { ALLOW_JSON, answerHome, askFromHook, claudeSession } from '../../popover/answer-fixture';

const GRACE_MS = 1500;
const SETTINGS = { timings: { answerGrace: GRACE_MS } };

let fixture: AnswerHome;
let runtime: Runtime;
let app: PopoverHost;
const problems: string[] = [];

beforeEach(async () => {
  fixture = answerHome(SETTINGS);
  problems.length = 0;
  runtime = new Runtime({ env: fixture.env, clock: Date.now, notifier: null, onProblem: (line) => problems.push(line) });
  app = new PopoverHost(runtime, Date.now, true);
  await runtime.start();
});

afterEach(async () => {
  await runtime.dispose();
  fixture.remove();
});

/** Waits for a condition, never a fixed time; the bound only ends a wait that will not succeed. */
async function waitFor<T>(what: string, check: () => T | undefined, timeout = 20_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() - started > timeout)
      throw new Error(
        `${what}: not in time; problems: ${problems.join(' | ')}; rows: ${JSON.stringify(runtime.snapshot?.sessions.map((row) => [row.key, row.observed.state, row.answer]))}`,
      );
    await new Promise((done) => setTimeout(done, 25));
  }
}

const rowOf = (key: string): Row | undefined => runtime.snapshot?.sessions.find((row) => row.key === key);
type Open = Extract<RowAnswer, { state: 'open' }>;
const openOf = (key: string): Open | undefined => {
  const answer = rowOf(key)?.answer;
  return answer?.state === 'open' ? answer : undefined;
};

/** A session whose prompt is open on its row, and the hook's promise with whether it has ended. */
async function asking(command = 'rm -rf build'): Promise<{ key: string; open: Open; hook: Promise<string>; ended: () => boolean }> {
  const session = claudeSession(fixture, command);
  let done = false;
  const hook = askFromHook(fixture, session, command).finally(() => {
    done = true;
  });
  const open = await waitFor('the row shows the prompt', () => openOf(session.key));
  return { key: session.key, open, hook, ended: () => done };
}

const audit = () =>
  (
    JSON.parse(readFileSync(join(fixture.home, 'store.json'), 'utf8')) as {
      answers?: { request: string; answer: string; message: string | null; from: string | null }[];
    }
  ).answers ?? [];
const recorded = (request: string) =>
  waitFor('the answer is recorded', () => {
    try {
      return audit().find((item) => item.request === request);
    } catch {
      return undefined;
    }
  });

describe('answering from the popover host', () => {
  it('R72 a click on the card allows at once; the hook prints the allow; the audit says popover (R75)', async () => {
    const { key, open, hook } = await asking();
    expect(open).toMatchObject({ prompt: 'approval', tool: 'Bash', text: 'rm -rf build' });
    expect(Date.now()).toBeLessThan(Date.parse(open.keysFrom));
    expect(await app.command({ type: 'answer', key, request: open.request, digest: open.digest, decision: { behavior: 'allow' }, via: 'click' })).toEqual({
      ok: true,
    });
    expect(await hook).toBe(ALLOW_JSON);
    expect(await recorded(open.request)).toMatchObject({ answer: 'allow', from: 'popover' });
    // R73: the row reads answered, waiting for the agent.
    await waitFor('the row reads answered', () => (rowOf(key)?.answer?.state === 'answered' ? true : undefined));
  });

  it('R72 a key within the grace is refused with the reason and the hook waits; after keysFrom it answers', async () => {
    const { key, open, hook, ended } = await asking();
    const command = { type: 'answer', key, request: open.request, digest: open.digest, decision: { behavior: 'allow' }, via: 'key' } as const;
    const early = await app.command(command);
    expect(early.ok).toBe(false);
    expect(early.error).toMatch(/a key or command answers it after/);
    expect(ended()).toBe(false);
    await waitFor('the grace has passed', () => (Date.now() >= Date.parse(open.keysFrom) ? true : undefined));
    expect(await app.command(command)).toEqual({ ok: true });
    expect(await hook).toBe(ALLOW_JSON);
    expect(await recorded(open.request)).toMatchObject({ answer: 'allow', from: 'popover-key' });
  });

  it('Deny carries its message; a second answer to the same prompt is refused', async () => {
    const { key, open, hook } = await asking();
    const deny = {
      type: 'answer',
      key,
      request: open.request,
      digest: open.digest,
      decision: { behavior: 'deny', message: 'not the build folder' },
      via: 'click',
    } as const;
    expect(await app.command(deny)).toEqual({ ok: true });
    expect(JSON.parse(await hook)).toEqual({
      hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: 'not the build folder' } },
    });
    expect(await recorded(open.request)).toMatchObject({ answer: 'deny', message: 'not the build folder', from: 'popover' });
    expect((await app.command(deny)).ok).toBe(false);
  });

  it('"Answer in terminal" lets the hook go with nothing printed (the agent\'s own prompt decides)', async () => {
    const { key, open, hook } = await asking();
    expect(await app.command({ type: 'release', key, request: open.request })).toEqual({ ok: true });
    expect(await hook).toBe('');
    expect(await recorded(open.request)).toMatchObject({ answer: 'released', from: 'popover' });
  });

  it('R71 refuses an answer naming another row, a changed digest, a malformed request or a decision the prompt does not take', async () => {
    const { key, open, ended } = await asking();
    const other = claudeSession(fixture, 'ls');
    await waitFor('the other row', () => rowOf(other.key));
    const base = { type: 'answer', key, request: open.request, digest: open.digest, via: 'click' } as const;
    expect(await app.command({ ...base, key: other.key, decision: { behavior: 'allow' } })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/nothing in this session is waiting|answer in the terminal/),
    });
    expect(await app.command({ ...base, digest: 'f'.repeat(64), decision: { behavior: 'allow' } })).toEqual({
      ok: false,
      error: 'the prompt changed since it was shown; nothing was sent',
    });
    expect(await app.command({ ...base, request: 'req_123', decision: { behavior: 'allow' } })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^refused: /),
    });
    expect(await app.command({ ...base, decision: { behavior: 'answers', answers: [['yes']] } })).toEqual({
      ok: false,
      error: 'this prompt asks for allow or deny, not options',
    });
    expect(await app.command({ ...base, via: 'mouse', decision: { behavior: 'allow' } })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^refused: /),
    });
    expect(ended()).toBe(false);
    expect(await app.command({ type: 'release', key, request: open.request })).toEqual({ ok: true });
  });

  it("`lookout serve`'s page answers only when settings.json says answerFromBrowser; the app's window always may", async () => {
    const page = new PopoverHost(runtime, Date.now, false);
    expect(app.state()?.settings.answering).toEqual({ allowed: true, why: null });
    expect(page.state()?.settings.answering).toEqual({ allowed: false, why: BROWSER_ANSWERS_OFF });
    const { key, open, hook, ended } = await asking();
    const allow = { type: 'answer', key, request: open.request, digest: open.digest, decision: { behavior: 'allow' }, via: 'click' } as const;
    expect(await page.command(allow)).toEqual({ ok: false, error: BROWSER_ANSWERS_OFF });
    expect(await page.command({ type: 'release', key, request: open.request })).toEqual({ ok: false, error: BROWSER_ANSWERS_OFF });
    expect(ended()).toBe(false);
    writeFileSync(join(fixture.home, 'settings.json'), `${JSON.stringify({ ...SETTINGS, answerFromBrowser: true })}\n`);
    await waitFor('the page may answer', () => (page.state()?.settings.answering.allowed === true ? true : undefined));
    expect(await page.command(allow)).toEqual({ ok: true });
    expect(await hook).toBe(ALLOW_JSON);
    expect(await recorded(open.request)).toMatchObject({ answer: 'allow', from: 'browser' });
  });
});
