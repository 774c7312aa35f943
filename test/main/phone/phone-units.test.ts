// Issue 49: the phone's parts one by one: tokens (R93), the outbox (R94), phone.json (R90), the lock, away (R91).
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, readdirSync } from 'node:fs';

import { afterEach, describe, expect, it } from 'vitest';
import { ActionTokens, TOKEN_SHAPE, TOKENS_MAX } from '../../../src/main/phone/tokens';
import type { Timers } from '../../../src/main/phone/backoff';
import { Backoff } from '../../../src/main/phone/backoff';
import { OUTBOX_MAX, Outbox } from '../../../src/main/phone/outbox';
import type { PhoneChannel, PhoneMessage } from '../../../src/main/phone/channel';
import { PhoneError } from '../../../src/main/phone/channel';
import { channelLabel, emptyPhoneFile, loadPhone, phonePath, savePhone, serverProblem } from '../../../src/main/phone/phone-config';
import { dropPhoneLock, phoneLockPath, takePhoneLock } from '../../../src/main/phone/phone-lock';
import { isAway } from '../../../src/main/phone/away';

const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});
const tempHome = (): string => {
  const home = mkdtempSync('/tmp/lk-phone-');
  homes.push(home);
  return home;
};

const bind = { channel: 'n1', key: 'claude:s', request: 'req_1', digest: 'd', tool: 'Bash: ls' };

describe('R93 one-time action tokens', () => {
  it('R93 a token is at most 22 base64url characters and answers once; its sibling is void too', () => {
    const tokens = new ActionTokens(() => 600_000);
    const allow = tokens.issue({ ...bind, decision: 'allow' }, 0);
    const deny = tokens.issue({ ...bind, decision: 'deny' }, 0);
    expect(allow).toMatch(TOKEN_SHAPE);
    expect(allow.length).toBeLessThanOrEqual(22);
    expect(tokens.spend(allow, 'n1', 1000)).toMatchObject({ ok: true, binding: { decision: 'allow', request: 'req_1' } });
    expect(tokens.spend(allow, 'n1', 1000)).toEqual({ ok: false, why: 'answered' });
    expect(tokens.spend(deny, 'n1', 1000)).toEqual({ ok: false, why: 'answered' });
  });

  it('R93 a token is void after phoneAnswerTtl, when the request changes, and from another channel', () => {
    const tokens = new ActionTokens(() => 600_000);
    const late = tokens.issue({ ...bind, decision: 'allow' }, 0);
    expect(tokens.spend(late, 'n1', 600_000)).toEqual({ ok: false, why: 'expired' });
    const other = tokens.issue({ ...bind, request: 'req_2', decision: 'allow' }, 0);
    expect(tokens.spend(other, 'telegram', 1)).toEqual({ ok: false, why: 'unknown' });
    tokens.keepShown((_key, request) => request !== 'req_2');
    expect(tokens.spend(other, 'n1', 1)).toEqual({ ok: false, why: 'changed' });
    expect(tokens.spend('not a token', 'n1', 1)).toEqual({ ok: false, why: 'unknown' });
  });

  it('R93 the table is bounded: the oldest tokens go first', () => {
    const tokens = new ActionTokens(() => 600_000);
    const first = tokens.issue({ ...bind, decision: 'allow' }, 0);
    for (let index = 0; index < TOKENS_MAX; index += 1) tokens.issue({ ...bind, request: `req_${index + 10}`, decision: 'allow' }, 0);
    expect(tokens.spend(first, 'n1', 1)).toEqual({ ok: false, why: 'unknown' });
  });
});

/** Timers a test steps by hand. */
class StepTimers implements Timers {
  readonly waiting: { run: () => void; ms: number }[] = [];
  set(run: () => void, ms: number): unknown {
    const entry = { run, ms };
    this.waiting.push(entry);
    return entry;
  }
  clear(handle: unknown): void {
    const at = this.waiting.indexOf(handle as { run: () => void; ms: number });
    if (at >= 0) this.waiting.splice(at, 1);
  }
  fire(): number {
    const next = this.waiting.shift();
    if (next === undefined) throw new Error('no timer waiting');
    next.run();
    return next.ms;
  }
}

class ScriptedChannel implements PhoneChannel {
  readonly kind = 'ntfy' as const;
  readonly label = 'ntfy example/abcd';
  readonly ignored = 0;
  readonly sent: PhoneMessage[] = [];
  failures: PhoneError[] = [];
  pending: (() => void)[] = [];
  hold = false;
  send(message: PhoneMessage): Promise<string> {
    const failure = this.failures.shift();
    if (failure !== undefined) return Promise.reject(failure);
    if (this.hold) return new Promise((resolve) => this.pending.push(() => resolve('held')));
    this.sent.push(message);
    return Promise.resolve(`m${this.sent.length}`);
  }
  settle(): Promise<void> {
    return Promise.resolve();
  }
  reply(): Promise<void> {
    return Promise.resolve();
  }
  listen(): Promise<void> {
    return Promise.resolve();
  }
}

const flush = () => new Promise((resolve) => setImmediate(resolve));
const message = (title: string): PhoneMessage => ({ title, body: '', buttons: [] });

describe('R94 the outbox', () => {
  it('R94 a failure is said once, retried with doubling backoff (Retry-After honoured), and the recovery said once', async () => {
    const channel = new ScriptedChannel();
    channel.failures = [new PhoneError('HTTP 401: unauthorized', 401), new PhoneError('HTTP 500', 500), new PhoneError('HTTP 429', 429, 30)];
    const timers = new StepTimers();
    const problems: string[] = [];
    const outbox = new Outbox(channel, { clock: () => 5, timers, onProblem: (line) => problems.push(line), onHealth: () => undefined });
    outbox.push(message('one'));
    await flush();
    expect(problems).toEqual(['lookout: phone channel ntfy example/abcd: HTTP 401: unauthorized; retrying with backoff (the desktop is not affected)']);
    expect(timers.fire()).toBe(5000);
    await flush();
    expect(timers.fire()).toBe(10_000);
    await flush();
    // The 429 asked for 30 s.
    expect(timers.fire()).toBe(30_000);
    await flush();
    expect(channel.sent.map((item) => item.title)).toEqual(['one']);
    expect(problems).toHaveLength(2);
    expect(problems[1]).toBe('lookout: phone channel ntfy example/abcd sends again');
    expect(outbox.health).toMatchObject({ lastOk: 5, lastError: { text: 'HTTP 429' } });
  });

  it('R94 the backoff doubles to a cap', () => {
    const backoff = new Backoff(5000, 300_000);
    const waits = Array.from({ length: 9 }, () => backoff.delay(null));
    expect(waits).toEqual([5000, 10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000, 300_000]);
  });

  it('R94 nothing is queued without bound: past OUTBOX_MAX the oldest are dropped and counted', async () => {
    const channel = new ScriptedChannel();
    channel.hold = true;
    const outbox = new Outbox(channel, { clock: () => 0, timers: new StepTimers(), onProblem: () => undefined, onHealth: () => undefined });
    for (let index = 0; index < OUTBOX_MAX + 6; index += 1) outbox.push(message(`m${index}`));
    expect(outbox.waiting).toBe(OUTBOX_MAX);
    expect(outbox.health.dropped).toBe(5);
    channel.hold = false;
    for (const release of channel.pending.splice(0)) release();
    await flush();
  });
});

describe('R90 phone.json', () => {
  it('R90 written 0600, read back, and a token never shown whole', () => {
    const home = tempHome();
    const file = emptyPhoneFile();
    file.channels.push({ kind: 'ntfy', id: 'ntfy', server: 'https://ntfy.sh', topic: 'mine', replyTopic: 'r'.repeat(22), token: 'tk_secretsecret' });
    file.channels.push({ kind: 'telegram', id: 'tg', botToken: '123456:ABCDEF', chatId: '42', userId: '42', api: 'https://api.telegram.org' });
    savePhone(home, file);
    expect(statSync(phonePath(home)).mode & 0o777).toBe(0o600);
    expect(loadPhone(home, 0)).toEqual({ file, problem: null });
    expect(channelLabel(file.channels[0] ?? file.channels[1] ?? { kind: 'ntfy', id: 'x', server: 'https://x', topic: 'x', replyTopic: 'x', token: null })).toBe(
      'ntfy ntfy.sh/mine (token tk_s…)',
    );
    const telegram = file.channels[1];
    if (telegram === undefined) throw new Error('two channels');
    expect(channelLabel(telegram)).toBe('telegram chat 42 (bot 1234…)');
  });

  it('R90 a corrupt phone.json is kept aside and said', () => {
    const home = tempHome();
    writeFileSync(phonePath(home), '{"schemaVersion":1,"channels":[{"kind":"ntfy"}]}');
    const loaded = loadPhone(home, 0);
    expect(loaded.file).toBeNull();
    expect(loaded.problem).toMatch(/is not a phone set-up Lookout can use .* kept as .*phone\.json\.corrupt-/);
    expect(readdirSync(home).some((name) => name.startsWith('phone.json.corrupt-'))).toBe(true);
  });

  it('R90 a server is https, or http only on this machine', () => {
    expect(serverProblem('https://ntfy.sh')).toBeNull();
    expect(serverProblem('http://127.0.0.1:8080')).toBeNull();
    expect(serverProblem('http://localhost')).toBeNull();
    expect(serverProblem('http://ntfy.example.com')).toMatch(/only https/);
    expect(serverProblem('https://user:pw@ntfy.sh')).toMatch(/no user/);
  });
});

describe('the phone lock and away', () => {
  it('one Lookout at a time sends and listens; a dead holder is taken over', () => {
    const home = tempHome();
    expect(takePhoneLock(home, process.pid)).toBe(true);
    expect(takePhoneLock(home, process.pid)).toBe(true);
    expect(statSync(phoneLockPath(home)).mode & 0o777).toBe(0o600);
    // Another live process (this one's parent) holds it: refused.
    writeFileSync(phoneLockPath(home), `${process.ppid}\n`);
    expect(takePhoneLock(home, process.pid)).toBe(false);
    // A holder that is gone: taken over.
    writeFileSync(phoneLockPath(home), '999999999\n');
    expect(takePhoneLock(home, process.pid)).toBe(true);
    dropPhoneLock(home, process.pid);
    expect(() => readFileSync(phoneLockPath(home))).toThrow();
  });

  it('R91 away: the screen locked, or idle for awayAfter', () => {
    expect(isAway(0, true, 300_000)).toBe(true);
    expect(isAway(299, false, 300_000)).toBe(false);
    expect(isAway(300, false, 300_000)).toBe(true);
  });
});
