// Issue 49: the Telegram channel against a stand-in of the Bot API (telegram-standin.ts): plain
// text (R91), buttons whose taps come back by long-polling (R92), taps from anyone else told no and
// counted (R93), failures as PhoneErrors that never carry the bot token (R94), and the set-up that
// finds the chat from the first message (R90); then end to end through the real runtime.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findAnswerHook } from '../../../src/providers';
import { askLookout } from '../../../src/main/answer/hook-client';
import type { PhoneIo } from '../../../src/main/commands/phone';
import { runPhone } from '../../../src/main/commands/phone';
import { writeSpool } from '../../../src/main/hooks/spool-writer';
import { flowingClock } from '../../../src/main/pipeline/clock';
import type { PhoneTap } from '../../../src/main/phone/channel';
import { PhoneError } from '../../../src/main/phone/channel';
import { Backoff } from '../../../src/main/phone/backoff';
import type { TelegramConfig } from '../../../src/main/phone/phone-config';
import { emptyPhoneFile, phonePath, savePhone } from '../../../src/main/phone/phone-config';
import { TelegramChannel } from '../../../src/main/phone/telegram';
import { findChat } from '../../../src/main/phone/telegram-setup';
import { Runtime } from '../../../src/main/runtime/runtime';
import { spoolFolder } from '../../../src/main/store/home';
import { Catcher } from '../catching-notifier';
import { fixtureHomes } from '../fixture-home';
import { waitFor } from '../../wait';
import { TelegramStandin } from './telegram-standin';

const CHAT = 4242;
const USER = 4242;
const TOKEN = 'A'.repeat(22);

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function bot(): Promise<{ standin: TelegramStandin; config: TelegramConfig; channel: TelegramChannel }> {
  const standin = new TelegramStandin();
  const api = await standin.start();
  cleanups.push(() => standin.stop());
  // The chat exists once the person has written to the bot.
  standin.message(CHAT, USER, '/start');
  const config: TelegramConfig = { kind: 'telegram', id: 'telegram', botToken: standin.token, chatId: String(CHAT), userId: String(USER), api };
  return { standin, config, channel: new TelegramChannel(config, { pollSeconds: 1 }) };
}

/** Listens until the test ends; the taps it passed on. */
function listening(channel: TelegramChannel): { taps: PhoneTap[]; stop: () => void; done: Promise<void> } {
  const taps: PhoneTap[] = [];
  const controller = new AbortController();
  const done = channel.listen((tap) => taps.push(tap), controller.signal);
  cleanups.push(async () => {
    controller.abort();
    await done.catch(() => undefined);
  });
  return { taps, stop: () => controller.abort(), done };
}

describe('the Telegram channel (issue 49)', () => {
  it('R91 plain text: markup arrives as written, hidden characters shown, a long body cut to 4096; the bot token never in a label', async () => {
    const { standin, channel } = await bot();
    await channel.send({ title: 'Claude needs you — app', body: 'Bash: echo *bold* <b>x</b> [a](http://x) \u202eevil\u0007', buttons: [] });
    const [sent] = standin.sent;
    expect(sent?.text.split('\n')[0]).toBe('Claude needs you — app');
    expect(sent?.text).toContain('*bold* <b>x</b> [a](http://x)');
    expect(sent?.text).not.toMatch(/[\u202e\u0007]/);
    await channel.send({ title: 't', body: 'x'.repeat(10_000), buttons: [] });
    expect(standin.sent[1]?.text.length).toBeLessThanOrEqual(4096);
    expect(channel.label).not.toContain(standin.token.slice(5));
    expect(channel.label).toBe(`telegram chat ${CHAT} (bot 1234…)`);
    // A digest keeps its lines; a break inside a line that was no line break shows as a token.
    await channel.send({ title: '2 sessions need you', body: 'app (main): asks\napi: waits \u2028here', buttons: [] });
    const lines = standin.sent[2]?.text.split('\n') ?? [];
    expect(lines.slice(0, 2)).toEqual(['2 sessions need you', 'app (main): asks']);
    expect(lines).toHaveLength(3);
    expect(lines[2]).toMatch(/^api: waits \S+here$/);
    expect(standin.sent[2]?.text).not.toContain('\u2028');
  });

  it('R92 buttons carry the tokens; a tap comes back through listen with its chat, user, message and callback; settle edits the message and drops the keyboard', async () => {
    const { standin, channel } = await bot();
    const ref = await channel.send({
      title: 'Claude needs you',
      body: 'Bash: npm test',
      buttons: [
        { label: 'Allow', token: TOKEN },
        { label: 'Deny', token: 'B'.repeat(22) },
      ],
    });
    const sent = standin.sent[0];
    if (sent === undefined) throw new Error('sent');
    expect(ref).toBe(String(sent.message_id));
    expect(sent.keyboard).toEqual([
      [
        { text: 'Allow', callback_data: TOKEN },
        { text: 'Deny', callback_data: 'B'.repeat(22) },
      ],
    ]);
    const { taps } = listening(channel);
    const query = standin.tap(sent, 'Allow', { chat: CHAT, user: USER });
    const tap = await waitFor('the tap', () => taps[0]);
    expect(tap).toEqual({ token: TOKEN, from: { chat: String(CHAT), user: String(USER) }, ref, callback: query });
    await channel.reply(tap, 'Allowed ✓ from the phone: Bash: npm test');
    expect(standin.answered).toEqual([{ id: query, text: 'Allowed ✓ from the phone: Bash: npm test' }]);
    await channel.settle(ref, 'Allowed ✓ from the phone: Bash: npm test');
    expect(sent.text).toBe('Allowed ✓ from the phone: Bash: npm test');
    expect(sent.keyboard).toEqual([]);
    // Settled twice (a replay): "message is not modified" is no failure.
    await channel.settle(ref, 'Allowed ✓ from the phone: Bash: npm test');
    expect(() => channel.sendBody({ title: 't', body: 'b', buttons: [{ label: 'x', token: 'x'.repeat(65) }] })).toThrow(/64 bytes/);
  });

  it('R93 a tap from another chat or another user is told why, counted, and never passed on', async () => {
    const { standin, channel } = await bot();
    await channel.send({ title: 'Claude needs you', body: 'Bash: npm test', buttons: [{ label: 'Allow', token: TOKEN }] });
    const sent = standin.sent[0];
    if (sent === undefined) throw new Error('sent');
    const { taps } = listening(channel);
    const stranger = standin.tap(sent, 'Allow', { chat: 999, user: 999 });
    const sameChatOtherUser = standin.tap(sent, 'Allow', { chat: CHAT, user: 7 });
    await waitFor('both told', () => (standin.answered.length === 2 ? true : undefined));
    expect(standin.answered).toEqual([
      { id: stranger, text: "This chat may not answer Lookout's prompts." },
      { id: sameChatOtherUser, text: "This chat may not answer Lookout's prompts." },
    ]);
    expect(channel.ignored).toBe(2);
    standin.tap(sent, 'Allow', { chat: CHAT, user: USER });
    await waitFor('the right tap', () => taps[0]);
    expect(taps).toHaveLength(1);
  });

  it('R94 a 401, a 429 with retry_after, no network and a hang are PhoneErrors that never carry the bot token', async () => {
    const { standin, config, channel } = await bot();
    const message = { title: 't', body: 'b', buttons: [] };
    const wrong = new TelegramChannel({ ...config, botToken: '123456789:AAwrongwrongwrongwrongwrong' });
    const refused = await wrong.send(message).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(PhoneError);
    expect((refused as PhoneError).status).toBe(401);
    expect((refused as PhoneError).message).toMatch(/^HTTP 401: Unauthorized \(Telegram refused this bot token/);
    standin.failNext({ status: 429, retryAfter: 7 });
    const limited = (await channel.send(message).catch((error: unknown) => error)) as PhoneError;
    expect([limited.status, limited.retryAfter]).toEqual([429, 7]);
    const down = new TelegramChannel({ ...config, api: 'http://127.0.0.1:9' });
    const unreachable = (await down.send(message).catch((error: unknown) => error)) as PhoneError;
    expect(unreachable.status).toBeNull();
    for (const error of [refused as PhoneError, limited, unreachable]) expect(error.message).not.toContain(standin.token);
  });

  it('R94 an update is passed on once, across a listener that stopped and started again; listen ends promptly when aborted; a second reader is a 409', async () => {
    const { standin, channel } = await bot();
    await channel.send({ title: 't', body: 'b', buttons: [{ label: 'Allow', token: TOKEN }] });
    const sent = standin.sent[0];
    if (sent === undefined) throw new Error('sent');
    const first = listening(channel);
    standin.tap(sent, 'Allow', { chat: CHAT, user: USER });
    await waitFor('the tap', () => first.taps[0]);
    first.stop();
    await first.done;
    const second = listening(channel);
    await waitFor('polling again', () => (standin.polling ? true : undefined));
    standin.tap(sent, 'Allow', { chat: CHAT, user: USER });
    await waitFor('the second tap', () => second.taps[0]);
    expect(second.taps).toHaveLength(1);
    // Another program reading the same bot's updates: the held poll ends with 409, said clearly.
    const other = new TelegramChannel(
      { kind: 'telegram', id: 'x', botToken: standin.token, chatId: String(CHAT), userId: String(USER), api: standin.url },
      { pollSeconds: 1 },
    );
    const rival = listening(other);
    const conflict = (await second.done.catch((error: unknown) => error)) as PhoneError;
    expect(conflict.status).toBe(409);
    expect(conflict.message).toMatch(/one reader at a time/);
    rival.stop();
  });

  it('R90 findChat finds the chat and user from the first private message; a bad token is refused', async () => {
    const standin = new TelegramStandin();
    const api = await standin.start();
    cleanups.push(() => standin.stop());
    const found = findChat(standin.token, api, { pollSeconds: 1 });
    await waitFor('polling', () => (standin.polling ? true : undefined));
    standin.message(5150, 5151, 'hello', 'Ada\u202e');
    expect(await found).toEqual({ chatId: '5150', userId: '5151', name: expect.stringMatching(/^Ada/) });
    expect((await found).name).not.toContain('\u202e');
    await expect(findChat('123456789:AAwrongwrongwrongwrongwrong', api)).rejects.toThrow('Telegram refused this bot token');
  });

  it('R90 `lookout phone add telegram`: the token from standard input, the chat from the first message, a 0600 phone.json; the token never printed', async () => {
    const standin = new TelegramStandin();
    const api = await standin.start();
    cleanups.push(() => standin.stop());
    const home = mkdtempSync('/tmp/lk-phone-tg-');
    cleanups.push(() => rmSync(home, { recursive: true, force: true }));
    const stdout: string[] = [];
    const stderr: string[] = [];
    const io: PhoneIo = {
      env: { LOOKOUT_HOME: home, LOOKOUT_TELEGRAM_API: api },
      out: (lines) => stdout.push(...lines),
      err: (lines) => {
        stderr.push(...lines);
        // The person sends the bot a message once asked to.
        if (lines.some((line) => line.startsWith('send any message'))) setTimeout(() => standin.message(77, 78, 'hi'), 0);
      },
      readLine: () => Promise.resolve(standin.token),
    };
    expect(await runPhone(['add', 'telegram'], io)).toBe(0);
    const written = JSON.parse(readFileSync(phonePath(home), 'utf8')) as { channels: TelegramConfig[] };
    expect(written.channels).toEqual([{ kind: 'telegram', id: 'telegram', botToken: standin.token, chatId: '77', userId: '78', api }]);
    expect(`${stdout.join('\n')}${stderr.join('\n')}`).not.toContain(standin.token.slice(10));
    expect(stdout[0]).toBe('added: telegram: telegram chat 77 (bot 1234…), answering only Ada');
  });
});

describe('the phone, end to end through Telegram (issue 49)', () => {
  const { home } = fixtureHomes('lk-phone-tg-e2e-');
  const SESSION = 'c1a00000-0000-4000-8000-000000000011';
  const ALLOWED = '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}\n';

  it('R92 R93 R95 the prompt reaches the chat with Allow and Deny; Allow answers the hook and the message is edited to say so; a replayed tap and a stranger are refused', async () => {
    const standin = new TelegramStandin();
    const api = await standin.start();
    cleanups.push(() => standin.stop());
    standin.message(CHAT, USER, '/start');
    const env = home(['fresh-tool']);
    const lookoutHome = env.LOOKOUT_HOME ?? '';
    mkdirSync(lookoutHome, { recursive: true });
    const file = emptyPhoneFile();
    file.channels.push({ kind: 'telegram', id: 'telegram', botToken: standin.token, chatId: String(CHAT), userId: String(USER), api });
    savePhone(lookoutHome, file);
    const clock = flowingClock(Date.parse('2026-11-29T12:00:03.000Z'));
    const problems: string[] = [];
    const runtime = new Runtime({
      env,
      clock,
      notifier: new Catcher(),
      onProblem: (line) => problems.push(line),
      hosts: false,
      phone: { force: true, backoff: () => new Backoff(50, 200) },
    });
    await runtime.start();
    cleanups.push(() => runtime.dispose());
    await waitFor(
      'the bot polled',
      () => (standin.polling ? true : undefined),
      () => problems.join('\n'),
    );
    const hook = findAnswerHook('claude-answer')?.hook;
    if (hook === undefined) throw new Error('Claude has an answering hook');
    const payload = { hook_event_name: 'PermissionRequest', session_id: SESSION, cwd: '/home/me/app', tool_name: 'Bash', tool_input: { command: 'npm test' } };
    writeSpool(spoolFolder(lookoutHome), 'claude', 'hook', JSON.stringify(payload), clock());
    const printed = askLookout(lookoutHome, hook, payload, 60_000);
    const sent = await waitFor(
      'the message with Allow and Deny',
      () => standin.sent.find((message) => message.keyboard.length > 0),
      () => `${problems.join('\n')}\n${JSON.stringify(standin.sent)}`,
    );
    expect(sent.text).toMatch(/\nBash: npm test$/);
    expect(sent.keyboard.flat().map((button) => button.text)).toEqual(['Allow', 'Deny']);
    const keyboard = sent.keyboard.map((row) => [...row]);
    const stranger = standin.tap(sent, 'Allow', { chat: 31337, user: 31337 });
    await waitFor('the stranger told no', () => standin.answered.find((item) => item.id === stranger));
    const tapped = standin.tap(sent, 'Allow', { chat: CHAT, user: USER });
    expect(await printed).toBe(ALLOWED);
    await waitFor('the message edited', () => (sent.edits > 0 ? true : undefined));
    expect(sent.text).toBe('Allowed ✓ from the phone: Bash: npm test');
    expect(sent.keyboard).toEqual([]);
    expect(standin.answered.find((item) => item.id === tapped)?.text).toBe('Allowed ✓ from the phone: Bash: npm test');
    // The same button again (a replay from a stale keyboard): told why, nothing sent.
    const replay = standin.tap({ ...sent, keyboard }, 'Allow', { chat: CHAT, user: USER });
    const told = await waitFor('the replay told why', () => standin.answered.find((item) => item.id === replay));
    expect(told.text).toMatch(/^Not sent: already answered/);
    const audit = JSON.parse(readFileSync(join(lookoutHome, 'store.json'), 'utf8')) as { answers?: { from: string | null; channel?: string }[] };
    expect(audit.answers?.find((item) => item.from === 'phone')?.channel).toBe(`telegram chat ${CHAT} (bot 1234…)`);
  });
});
