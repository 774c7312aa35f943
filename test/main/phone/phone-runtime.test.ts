// Issue 49 end to end: the real runtime holds a Claude permission request from its answering hook,
// the notification reaches an ntfy stand-in (ntfy-standin.ts) with Allow and Deny, and a tap there
// (as the ntfy app makes it) answers the hook; every refusal of R93 replies; R94's failures are said
// once and retried, and the desktop notifier is called regardless.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findAnswerHook } from '../../../src/providers';
import { Runtime } from '../../../src/main/runtime/runtime';
import { flowingClock } from '../../../src/main/pipeline/clock';
import { writeSpool } from '../../../src/main/hooks/spool-writer';
import { spoolFolder } from '../../../src/main/store/home';
import { requestsPath } from '../../../src/main/answer/paths';
import { askLookout } from '../../../src/main/answer/hook-client';
import { Backoff } from '../../../src/main/phone/backoff';
import { emptyPhoneFile, savePhone } from '../../../src/main/phone/phone-config';
import { readPhoneState } from '../../../src/main/phone/phone-state';
import { fixtureHomes } from '../fixture-home';
import { waitFor } from '../../wait';
import { Catcher } from '../catching-notifier';
import type { NtfyMessage } from './ntfy-standin';
import { NtfyStandin } from './ntfy-standin';

const { home } = fixtureHomes('lk-phone-e2e-');
const NOW = Date.parse('2026-11-29T12:00:03.000Z');
const SESSION = 'c1a00000-0000-4000-8000-000000000010';
const KEY = `claude:${SESSION}`;
const ALLOWED = '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}\n';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Lab {
  runtime: Runtime;
  standin: NtfyStandin;
  catcher: Catcher;
  problems: string[];
  lookoutHome: string;
  clock: () => number;
  /** Claude asks to run `command`: the spool hook records it, the answering hook waits; what it prints. */
  ask(command: string): Promise<string>;
  /** The phone message with actions for that command. */
  message(command: string): Promise<NtfyMessage>;
  /** ntfy messages on the main topic that say `pattern` (the follow-ups and replies). */
  said(pattern: RegExp): Promise<NtfyMessage>;
}

async function lab(timings: Record<string, number> = {}, phoneAtStart = true): Promise<Lab> {
  const env = home(['fresh-tool']);
  const lookoutHome = env.LOOKOUT_HOME ?? '';
  mkdirSync(lookoutHome, { recursive: true });
  if (Object.keys(timings).length > 0) writeFileSync(join(lookoutHome, 'settings.json'), JSON.stringify({ schemaVersion: 1, timings }));
  const standin = new NtfyStandin();
  const server = await standin.start();
  cleanups.push(() => standin.stop());
  const file = emptyPhoneFile();
  file.channels.push({ kind: 'ntfy', id: 'ntfy', server, topic: 'lookout-me', replyTopic: 'reply_0123456789abcdefghij', token: null });
  if (phoneAtStart) savePhone(lookoutHome, file);
  const clock = flowingClock(NOW);
  const catcher = new Catcher();
  const problems: string[] = [];
  const runtime = new Runtime({
    env,
    clock,
    notifier: catcher,
    onProblem: (line) => problems.push(line),
    hosts: false,
    phone: { force: true, backoff: () => new Backoff(50, 200) },
  });
  await runtime.start();
  cleanups.push(() => runtime.dispose());
  if (!phoneAtStart) savePhone(lookoutHome, file);
  await waitFor(
    'the reply topic subscribed',
    () => standin.subscribers === 1 || undefined,
    () => problems.join('\n'),
  );
  const hook = findAnswerHook('claude-answer')?.hook;
  if (hook === undefined) throw new Error('Claude has an answering hook');
  return {
    runtime,
    standin,
    catcher,
    problems,
    lookoutHome,
    clock,
    ask(command) {
      const payload = { hook_event_name: 'PermissionRequest', session_id: SESSION, cwd: '/home/me/app', tool_name: 'Bash', tool_input: { command } };
      writeSpool(spoolFolder(lookoutHome), 'claude', 'hook', JSON.stringify(payload), clock());
      return askLookout(lookoutHome, hook, payload, 60_000);
    },
    message: (command) =>
      waitFor(
        'the phone message with Allow and Deny',
        () => standin.messages.find((item) => item.message === `Bash: ${command}` && item.actions !== undefined),
        () => `${problems.join('\n')}\n${JSON.stringify(standin.messages)}`,
      ),
    said: (pattern) =>
      waitFor(
        `a message saying ${String(pattern)}`,
        () => standin.messages.find((item) => pattern.test(item.message)),
        () => JSON.stringify(standin.messages.map((item) => item.message)),
      ),
  };
}

function audit(lookoutHome: string): { from: string | null; channel?: string; answer: string }[] {
  return (
    (JSON.parse(readFileSync(join(lookoutHome, 'store.json'), 'utf8')) as { answers?: { from: string | null; channel?: string; answer: string }[] }).answers ??
    []
  );
}

describe('issue 49: the phone, end to end through ntfy', () => {
  it('R41 R91 a face with no desktop notifications and a phone sending only while away (a terminal watch) tells nothing and records nothing as told', async () => {
    const env = home(['fresh-tool']);
    const lookoutHome = env.LOOKOUT_HOME ?? '';
    mkdirSync(lookoutHome, { recursive: true });
    const file = emptyPhoneFile();
    file.channels.push({ kind: 'ntfy', id: 'ntfy', server: 'http://127.0.0.1:9', topic: 'lookout-me', replyTopic: 'reply_0123456789abcdefghij', token: null });
    savePhone(lookoutHome, file);
    const clock = flowingClock(NOW);
    const problems: string[] = [];
    const runtime = new Runtime({ env, clock, notifier: null, onProblem: (line) => problems.push(line), hosts: false, answering: false });
    await runtime.start();
    cleanups.push(() => runtime.dispose());
    const payload = { hook_event_name: 'Notification', session_id: SESSION, cwd: '/home/me/app', message: 'Claude needs your permission to use Bash' };
    writeSpool(spoolFolder(lookoutHome), 'claude', 'hook', JSON.stringify(payload), clock());
    await waitFor(
      'the row needing the person',
      () => runtime.snapshot?.sessions.find((row) => row.key === KEY && row.claim?.kind === 'needs-you'),
      () => problems.join('\n'),
    );
    runtime.evaluateNow();
    expect(runtime.facts.facts.notified).toEqual([]);
  });

  it('R90 a channel added while Lookout runs (phone.json written by `lookout phone add`) sends without a restart; removed, it stops listening', async () => {
    const { standin, ask, message, lookoutHome, problems } = await lab({}, false);
    const printed = ask('npm run build');
    const sent = await message('npm run build');
    expect(await standin.tap(sent, 'Allow')).toBe(200);
    expect(await printed).toBe(ALLOWED);
    savePhone(lookoutHome, emptyPhoneFile());
    await waitFor(
      'the reply topic let go',
      () => standin.subscribers === 0 || undefined,
      () => problems.join('\n'),
    );
  });

  it('R91 R92 R95 the notification reaches the phone with Allow and Deny; Allow there answers the hook, is settled, and audited with the channel', async () => {
    const { standin, catcher, ask, message, said, lookoutHome } = await lab();
    const printed = ask('npm test');
    const sent = await message('npm test');
    expect(sent.title).toBe(catcher.sent.find((item) => item.plan.keys.includes(KEY))?.plan.title);
    expect(sent.actions?.map((action) => action.label)).toEqual(['Allow', 'Deny']);
    expect(sent.markdown).toBeUndefined();
    expect(await standin.tap(sent, 'Allow')).toBe(200);
    expect(await printed).toBe(ALLOWED);
    await said(/^Allowed ✓ from the phone: Bash: npm test$/);
    const record = await waitFor('the audit', () => audit(lookoutHome).find((item) => item.from === 'phone'));
    expect(record).toMatchObject({ answer: 'allow', channel: `ntfy ${new URL(standin.url).host}/lookout-me` });
  });

  it('R93 a replayed tap, and the other button after one was used, are refused with a reply', async () => {
    const { standin, ask, message, said } = await lab();
    const printed = ask('npm run build');
    const sent = await message('npm run build');
    await standin.tap(sent, 'Deny');
    expect(JSON.parse(await printed)).toMatchObject({ hookSpecificOutput: { decision: { behavior: 'deny' } } });
    await said(/^Denied ✗ from the phone/);
    await standin.tap(sent, 'Deny');
    await standin.tap(sent, 'Allow');
    await waitFor('two refusals', () => (standin.messages.filter((item) => /^Not sent: already answered/.test(item.message)).length === 2 ? true : undefined));
  });

  it('R93 a tap after the prompt was answered elsewhere says so, and sends nothing', async () => {
    const { runtime, standin, ask, message, said } = await lab();
    const printed = ask('make deploy');
    const sent = await message('make deploy');
    const held = await waitFor('the request shown', () => {
      const view = runtime.evaluation?.derived.get(KEY)?.answer;
      return view?.state === 'open' ? view.request : undefined;
    });
    expect(await runtime.answer({ request: held.id, digest: held.digest, decision: { behavior: 'deny', message: null }, from: 'cli', via: 'click' })).toEqual({
      ok: true,
    });
    expect(JSON.parse(await printed)).toMatchObject({ hookSpecificOutput: { decision: { behavior: 'deny' } } });
    await standin.tap(sent, 'Allow');
    await said(/^Not sent: .*answered/);
    expect(standin.messages.some((item) => /^Allowed/.test(item.message))).toBe(false);
  });

  it('R93 a tap after phoneAnswerTtl is refused as expired', async () => {
    const { standin, ask, message, said, clock } = await lab({ phoneAnswerTtl: 1000 });
    const printed = ask('rm -rf build');
    const sent = await message('rm -rf build');
    const at = clock();
    await waitFor(
      'the token to expire',
      () => (clock() >= at + 1000 ? true : undefined),
      () => '',
      { every: 50 },
    );
    await standin.tap(sent, 'Allow');
    await said(/^Not sent: expired/);
    // Nothing reached the agent: its hook still waits (the runtime lets it go when it stops).
    const settled = await Promise.race([printed, Promise.resolve('waiting')]);
    expect(settled).toBe('waiting');
  });

  it('R94 a 401 and a 429 from the service are said once and retried with backoff; the desktop notifier was called regardless', async () => {
    const { runtime, standin, catcher, ask, message, problems, lookoutHome } = await lab();
    standin.failNext(401, 429);
    const hookOutput = ask('npm ci');
    await waitFor('the desktop notification', () => catcher.sent.find((item) => item.plan.keys.includes(KEY)));
    await message('npm ci');
    const said = problems.filter((line) => line.includes('phone channel'));
    expect(said).toEqual([
      expect.stringMatching(/^lookout: phone channel ntfy 127\.0\.0\.1:\d+\/lookout-me: HTTP 401: failed .*retrying with backoff/),
      expect.stringMatching(/sends again$/),
    ]);
    const posts = standin.requests.filter((request) => request.method === 'POST' && request.path === '/');
    expect(posts.length).toBeGreaterThanOrEqual(3);
    const state = readPhoneState(lookoutHome).ntfy;
    expect(state?.lastOk).not.toBeNull();
    expect(state?.lastError?.text).toMatch(/HTTP 429/);
    // R74 stopping lets the hook go, audited then; the hook's connection dropping (within dispose) writes nothing after.
    await runtime.dispose();
    expect(audit(lookoutHome).map((item) => item.answer)).toEqual(['released']);
    expect(existsSync(requestsPath(lookoutHome))).toBe(false);
    expect(await hookOutput).toBe('');
  });
});
