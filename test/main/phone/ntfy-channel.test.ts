// Issue 49: the ntfy channel against a stand-in that follows ntfy's documentation (ntfy-standin.ts).
import { afterEach, describe, expect, it } from 'vitest';
import { NtfyChannel } from '../../../src/main/phone/ntfy';
import type { PhoneTap } from '../../../src/main/phone/channel';
import { PhoneError } from '../../../src/main/phone/channel';
import type { NtfyConfig } from '../../../src/main/phone/phone-config';
import { NtfyStandin } from './ntfy-standin';
import { waitFor } from '../../wait';

const standins: NtfyStandin[] = [];
const controllers: AbortController[] = [];
afterEach(async () => {
  for (const controller of controllers.splice(0)) controller.abort();
  for (const standin of standins.splice(0)) await standin.stop();
});

async function setUp(token: string | null = null): Promise<{ standin: NtfyStandin; channel: NtfyChannel; config: NtfyConfig }> {
  const standin = new NtfyStandin();
  standins.push(standin);
  const server = await standin.start();
  const config: NtfyConfig = { kind: 'ntfy', id: 'ntfy', server, topic: 'lookout-me', replyTopic: 'reply_abcdefghijklmnopqrstu', token };
  return { standin, channel: new NtfyChannel(config), config };
}

const TOKEN_A = 'AAAAAAAAAAAAAAAAAAAAAA';

describe('R91 R92 ntfy', () => {
  it('R91 publishes as JSON, plain text (no markdown), controls shown as tokens; R92 Allow and Deny are http actions to the reply topic', async () => {
    const { standin, channel, config } = await setUp();
    const ref = await channel.send({
      title: 'Claude needs you',
      body: 'Bash: echo **bold**\u001b[31m',
      buttons: [
        { label: 'Allow', token: TOKEN_A },
        { label: 'Deny', token: 'BBBBBBBBBBBBBBBBBBBBBB' },
      ],
    });
    const sent = standin.messages[0];
    expect(ref).toBe(sent?.id);
    expect(sent).toMatchObject({ topic: 'lookout-me', title: 'Claude needs you', message: 'Bash: echo **bold**␛[31m' });
    expect(sent?.markdown).toBeUndefined();
    expect(sent?.actions).toEqual([
      { action: 'http', label: 'Allow', url: `${config.server}/${config.replyTopic}`, method: 'POST', body: TOKEN_A, clear: true },
      { action: 'http', label: 'Deny', url: `${config.server}/${config.replyTopic}`, method: 'POST', body: 'BBBBBBBBBBBBBBBBBBBBBB', clear: true },
    ]);
  });

  it('R91 a long body is cut to ntfy’s 4,096 bytes', async () => {
    const { standin, channel } = await setUp();
    await channel.send({ title: 't', body: 'é'.repeat(5000), buttons: [] });
    expect(Buffer.byteLength(standin.messages[0]?.message ?? '', 'utf8')).toBeLessThanOrEqual(4096);
  });

  it('R92 a tap on an action comes back through the streaming subscription; anything not token-shaped is counted; a drop resumes with since', async () => {
    const { standin, channel } = await setUp();
    const taps: PhoneTap[] = [];
    const controller = new AbortController();
    controllers.push(controller);
    const listening = channel.listen((tap) => taps.push(tap), controller.signal);
    await waitFor('subscribed', () => standin.subscribers === 1 || undefined);
    await channel.send({ title: 't', body: 'b', buttons: [{ label: 'Allow', token: TOKEN_A }] });
    const sent = standin.messages[0];
    if (sent === undefined) throw new Error('sent');
    expect(await standin.tap(sent, 'Allow')).toBe(200);
    await waitFor('the tap', () => taps[0]);
    expect(taps[0]).toEqual({ token: TOKEN_A, from: null, ref: null, callback: null });
    await fetch(`${standin.url}/reply_abcdefghijklmnopqrstu`, { method: 'POST', body: 'hello there' });
    await waitFor('ignored', () => channel.ignored === 1 || undefined);
    // Dropped: the listener comes back with since=<last id> and misses nothing published meanwhile.
    standin.drop();
    await fetch(`${standin.url}/reply_abcdefghijklmnopqrstu`, { method: 'POST', body: 'CCCCCCCCCCCCCCCCCCCCCC' });
    await waitFor('the tap published while dropped', () => taps[1]);
    expect(standin.requests.some((request) => request.path.endsWith('/json') && request.method === 'GET')).toBe(true);
    controller.abort();
    await listening;
  });

  it('R92 a tap published while the subscription was down, before any message came, still arrives (since=<the open time>)', async () => {
    const { standin, channel } = await setUp();
    const taps: PhoneTap[] = [];
    const controller = new AbortController();
    controllers.push(controller);
    const listening = channel.listen((tap) => taps.push(tap), controller.signal);
    await waitFor('subscribed', () => standin.subscribers === 1 || undefined);
    standin.hold();
    standin.drop();
    await fetch(`${standin.url}/reply_abcdefghijklmnopqrstu`, { method: 'POST', body: TOKEN_A });
    await waitFor('the reconnection', () => (standin.requests.filter((request) => request.method === 'GET').length === 2 ? true : undefined));
    expect(taps).toEqual([]);
    standin.release();
    await waitFor('the tap published while dropped', () => taps[0]);
    controller.abort();
    await listening;
  });

  it('R90 R94 a protected topic without its token is a 401, with one a 403 when it has no access, and sends with the right one; a 429 carries its wait', async () => {
    const { standin, channel } = await setUp();
    standin.protect('lookout-me', ['tk_good']);
    await expect(channel.send({ title: 't', body: 'b', buttons: [] })).rejects.toMatchObject({ status: 401 });
    const wrong = new NtfyChannel({
      kind: 'ntfy',
      id: 'n',
      server: standin.url,
      topic: 'lookout-me',
      replyTopic: 'reply_abcdefghijklmnopqrstu',
      token: 'tk_bad',
    });
    await expect(wrong.send({ title: 't', body: 'b', buttons: [] })).rejects.toMatchObject({ status: 403 });
    const right = new NtfyChannel({
      kind: 'ntfy',
      id: 'n',
      server: standin.url,
      topic: 'lookout-me',
      replyTopic: 'reply_abcdefghijklmnopqrstu',
      token: 'tk_good',
    });
    await right.send({ title: 't', body: 'b', buttons: [{ label: 'Allow', token: TOKEN_A }] });
    expect(standin.messages[0]?.actions?.[0]?.headers).toEqual({ Authorization: 'Bearer tk_good' });
    expect(right.label).toBe(`ntfy ${new URL(standin.url).host}/lookout-me (token tk_g…)`);
    standin.failNext(429);
    const limited = await right.send({ title: 't', body: 'b', buttons: [] }).catch((error: unknown) => error);
    expect(limited).toBeInstanceOf(PhoneError);
    expect(limited).toMatchObject({ status: 429, retryAfter: 1 });
  });

  it('R94 a server that cannot be reached is a PhoneError with no status', async () => {
    const { standin, config } = await setUp();
    await standin.stop();
    standins.length = 0;
    const channel = new NtfyChannel(config);
    await expect(channel.send({ title: 't', body: 'b', buttons: [] })).rejects.toMatchObject({ status: null });
  });
});
