// Issue 49: the phone notifier with a scripted channel: away gating (R91), buttons and a tap with a
// callback (R92, a Telegram-like service), and a listener that fails (R94).
import { describe, expect, it } from 'vitest';
import type { NotificationAction, NotificationPlan } from '../../../src/engine';
import type { Notifier } from '../../../src/main/notify/notifier';
import type { PhoneChannel, PhoneMessage, PhoneTap } from '../../../src/main/phone/channel';
import { PhoneError } from '../../../src/main/phone/channel';
import type { PhoneTarget } from '../../../src/main/phone/phone-notifier';
import { PhoneNotifier } from '../../../src/main/phone/phone-notifier';
import type { PhoneDecision } from '../../../src/main/phone/tokens';
import { Backoff } from '../../../src/main/phone/backoff';
import { waitFor } from '../../wait';

class Desktop implements Notifier {
  readonly plans: NotificationPlan[] = [];
  send(plan: NotificationPlan, act: (action: NotificationAction) => void): Promise<void> {
    void act;
    this.plans.push(plan);
    return Promise.resolve();
  }
}

class Scripted implements PhoneChannel {
  readonly kind = 'telegram' as const;
  readonly label = 'telegram chat 42 (bot 1234…)';
  readonly ignored = 0;
  readonly sent: PhoneMessage[] = [];
  readonly settled: string[] = [];
  readonly replies: { tap: PhoneTap; text: string }[] = [];
  listenFailures = 0;
  listens = 0;
  onTap: ((tap: PhoneTap) => void) | null = null;
  send(message: PhoneMessage): Promise<string> {
    this.sent.push(message);
    return Promise.resolve(`msg-${this.sent.length}`);
  }
  settle(ref: string | null, text: string): Promise<void> {
    this.settled.push(`${ref ?? 'null'}: ${text}`);
    return Promise.resolve();
  }
  reply(tap: PhoneTap, text: string): Promise<void> {
    this.replies.push({ tap, text });
    return Promise.resolve();
  }
  listen(onTap: (tap: PhoneTap) => void, signal: AbortSignal): Promise<void> {
    this.listens += 1;
    if (this.listenFailures > 0) {
      this.listenFailures -= 1;
      return Promise.reject(new PhoneError('HTTP 409: Conflict: terminated by other getUpdates request', 409));
    }
    this.onTap = onTap;
    return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
  }
}

const PLAN: NotificationPlan = {
  claimIds: ['c1'],
  keys: ['claude:s1'],
  title: 'Claude needs you — app',
  body: 'Bash: npm test',
  answer: { key: 'claude:s1', request: `req_${'a'.repeat(24)}`, digest: 'd'.repeat(64) },
};

function notifier(always: boolean) {
  const desktop = new Desktop();
  const channel = new Scripted();
  const answers: { target: PhoneTarget; decision: PhoneDecision; channel: string }[] = [];
  const problems: string[] = [];
  const phone = new PhoneNotifier(
    desktop,
    [{ id: 'telegram', channel }],
    {
      clock: () => 1000,
      ttl: () => 600_000,
      answer: (target, decision, label) => {
        answers.push({ target, decision, channel: label });
        return Promise.resolve({ ok: true });
      },
      onProblem: (line) => problems.push(line),
      home: null,
      backoff: () => new Backoff(10, 40),
    },
    always,
  );
  return { desktop, channel, answers, problems, phone };
}

describe('the phone notifier (issue 49)', () => {
  it('R91 "only when away": the desktop always, the phone only while away', async () => {
    const { desktop, channel, phone } = notifier(false);
    await phone.send(PLAN, () => undefined);
    expect(desktop.plans).toHaveLength(1);
    expect(channel.sent).toHaveLength(0);
    phone.setAway(true);
    await phone.send({ ...PLAN, claimIds: ['c2'] }, () => undefined);
    await waitFor('sent', () => channel.sent[0]);
    expect(desktop.plans).toHaveLength(2);
    // A plan the desktop offers no Allow for (an ambiguous row, a digest) has no buttons on the phone either.
    const { answer: _answer, ...plain } = PLAN;
    await phone.send({ ...plain, claimIds: ['c3'] }, () => undefined);
    expect((await waitFor('sent', () => channel.sent[1])).buttons).toEqual([]);
    phone.dispose();
  });

  it('R92 R95 Allow and Deny carry tokens; a tap answers from the channel, settles the message and answers the callback', async () => {
    const { channel, answers, phone } = notifier(true);
    phone.start();
    await phone.send(PLAN, () => undefined);
    const sent = await waitFor('sent', () => channel.sent[0]);
    expect(sent.buttons.map((button) => button.label)).toEqual(['Allow', 'Deny']);
    const deny = sent.buttons[1]?.token ?? '';
    const onTap = await waitFor('listening', () => channel.onTap ?? undefined);
    onTap({ token: deny, from: { chat: '42', user: '42' }, ref: 'msg-1', callback: 'cb-1' });
    await waitFor('settled', () => channel.settled[0]);
    expect(answers).toEqual([
      { target: expect.objectContaining({ key: 'claude:s1', request: PLAN.answer?.request }), decision: 'deny', channel: channel.label },
    ]);
    expect(channel.settled).toEqual(['msg-1: Denied ✗ from the phone: Bash: npm test']);
    expect(channel.replies.map((reply) => reply.text)).toEqual(['Denied ✗ from the phone: Bash: npm test']);
    onTap({ token: deny, from: { chat: '42', user: '42' }, ref: 'msg-1', callback: 'cb-2' });
    await waitFor('refused', () => channel.replies[1]);
    expect(channel.replies[1]?.text).toMatch(/^Not sent: already answered/);
    expect(answers).toHaveLength(1);
    // The answered message keeps saying what was answered.
    expect(channel.settled).toHaveLength(1);
    phone.dispose();
  });

  it("R92 a question of one choice carries its options as buttons; a tap answers with that option's label", async () => {
    const { channel, answers, phone } = notifier(true);
    phone.start();
    const question: NotificationPlan = {
      ...PLAN,
      claimIds: ['q1'],
      body: 'Which colour should the badge be? (Red / Blue)',
      answer: { key: 'claude:s1', request: `req_${'b'.repeat(24)}`, digest: 'e'.repeat(64), options: ['Red', 'Blue'] },
    };
    await phone.send(question, () => undefined);
    const sent = await waitFor('sent', () => channel.sent[0]);
    expect(sent.buttons.map((button) => button.label)).toEqual(['Red', 'Blue']);
    const onTap = await waitFor('listening', () => channel.onTap ?? undefined);
    onTap({ token: sent.buttons[1]?.token ?? '', from: { chat: '42', user: '42' }, ref: 'msg-1', callback: 'cb-1' });
    await waitFor('settled', () => channel.settled[0]);
    expect(answers).toEqual([{ target: expect.objectContaining({ request: question.answer?.request }), decision: { option: 'Blue' }, channel: channel.label }]);
    expect(channel.settled[0]).toMatch(/Answered "Blue" ✓ from the phone/);
    // The other option is void once one was used: a question is answered once.
    onTap({ token: sent.buttons[0]?.token ?? '', from: { chat: '42', user: '42' }, ref: 'msg-1', callback: 'cb-2' });
    await waitFor('refused', () => channel.replies[1]);
    expect(channel.replies[1]?.text).toMatch(/^Not sent: already answered/);
    expect(answers).toHaveLength(1);
    phone.dispose();
  });

  it('R92 a question with more options than the service shows gets no buttons at all, and says to answer at the computer', async () => {
    const { channel, phone } = notifier(true);
    Object.assign(channel, { maxButtons: 3 });
    phone.start();
    const options = ['One', 'Two', 'Three', 'Four'];
    await phone.send(
      { ...PLAN, claimIds: ['q2'], body: 'Pick one', answer: { key: 'claude:s1', request: `req_${'c'.repeat(24)}`, digest: 'f'.repeat(64), options } },
      () => undefined,
    );
    const sent = await waitFor('sent', () => channel.sent[0]);
    expect(sent.buttons).toEqual([]);
    expect(sent.body).toMatch(/answer it at the computer/);
    phone.dispose();
  });

  it('R93 a tap on a prompt that changed is told why and its message loses the buttons', async () => {
    const { channel, answers, phone } = notifier(true);
    phone.start();
    await phone.send(PLAN, () => undefined);
    const sent = await waitFor('sent', () => channel.sent[0]);
    const onTap = await waitFor('listening', () => channel.onTap ?? undefined);
    // The row no longer shows that request (answered in the terminal): its tokens are void.
    phone.keepShown(() => false);
    onTap({ token: sent.buttons[0]?.token ?? '', from: { chat: '42', user: '42' }, ref: 'msg-1', callback: 'cb-1' });
    await waitFor('settled', () => channel.settled[0]);
    expect(channel.replies.map((reply) => reply.text)).toEqual([expect.stringMatching(/^Not sent: this prompt changed/)]);
    expect(channel.settled).toEqual([expect.stringMatching(/^msg-1: Not sent: this prompt changed/)]);
    expect(answers).toEqual([]);
    phone.dispose();
  });

  it('R94 a listener that fails is said once and tried again with backoff', async () => {
    const { channel, problems, phone } = notifier(true);
    channel.listenFailures = 3;
    phone.start();
    await waitFor('listening again', () => channel.onTap ?? undefined);
    expect(channel.listens).toBe(4);
    expect(problems).toEqual([expect.stringMatching(/^lookout: phone channel telegram chat 42 \(bot 1234…\) cannot listen for taps: HTTP 409/)]);
    phone.dispose();
  });
});

describe('one Lookout sends (issue 49)', () => {
  it('a second Lookout leaves the phone to the one holding run/phone.lock, and says so once', async () => {
    const { mkdtempSync, rmSync, writeFileSync, mkdirSync } = await import('node:fs');
    const home = mkdtempSync('/tmp/lk-phone-lock-');
    try {
      mkdirSync(`${home}/run`, { mode: 0o700 });
      // This test's parent process stands for the other Lookout.
      writeFileSync(`${home}/run/phone.lock`, `${process.ppid}\n`);
      const channel = new Scripted();
      const problems: string[] = [];
      const phone = new PhoneNotifier(
        null,
        [{ id: 'telegram', channel }],
        { clock: () => 0, ttl: () => 1000, answer: () => Promise.resolve({ ok: true }), onProblem: (line) => problems.push(line), home },
        true,
      );
      expect(phone.start()).toBe(false);
      await phone.send(PLAN, () => undefined);
      expect(channel.sent).toEqual([]);
      expect(channel.listens).toBe(0);
      expect(problems).toEqual([expect.stringMatching(/another Lookout process sends to the phone/)]);
      phone.dispose();
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
