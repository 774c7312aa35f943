// Issue 49: `lookout phone add|list|remove|test|mode` (R90) and doctor's phone section, in process
// (the ntfy stand-in answers in this process).
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { PhoneIo } from '../../../src/main/commands/phone';
import { ntfyTarget, runPhone } from '../../../src/main/commands/phone';
import { UsageError } from '../../../src/main/cli/usage-error';
import { phoneLines, phoneProblems, phoneReport } from '../../../src/main/doctor/phone';
import { phonePath } from '../../../src/main/phone/phone-config';
import { NtfyStandin } from './ntfy-standin';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

function io(input: string | null = null): PhoneIo & { stdout: string[]; stderr: string[] } {
  const home = mkdtempSync('/tmp/lk-phone-cmd-');
  cleanups.push(() => rmSync(home, { recursive: true, force: true }));
  const stdout: string[] = [];
  const stderr: string[] = [];
  return {
    env: { LOOKOUT_HOME: home },
    out: (lines) => stdout.push(...lines),
    err: (lines) => stderr.push(...lines),
    readLine: () => Promise.resolve(input),
    stdout,
    stderr,
  };
}

describe('lookout phone (issue 49)', () => {
  it('R90 add ntfy stores a random reply topic and the token 0600, and never prints the token whole; list, mode and remove', async () => {
    const cli = io();
    expect(await runPhone(['add', 'ntfy', 'ntfy.sh/my-lookout', '--token', 'tk_abcdefghijklmnop'], cli)).toBe(0);
    expect(cli.stdout[0]).toBe('added: ntfy: ntfy ntfy.sh/my-lookout (token tk_a…)');
    const path = phonePath(cli.env.LOOKOUT_HOME ?? '');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const file = JSON.parse(readFileSync(path, 'utf8')) as { mode: string; channels: { replyTopic: string; token: string; server: string }[] };
    expect(file.mode).toBe('away');
    expect(file.channels[0]).toMatchObject({ server: 'https://ntfy.sh', token: 'tk_abcdefghijklmnop' });
    expect(file.channels[0]?.replyTopic).toMatch(/^lk_[A-Za-z0-9_-]{24}$/);
    expect(await runPhone(['mode', 'always'], cli)).toBe(0);
    cli.stdout.length = 0;
    expect(await runPhone(['list'], cli)).toBe(0);
    expect(cli.stdout).toEqual(['mode: always', 'ntfy: ntfy ntfy.sh/my-lookout (token tk_a…): nothing sent yet']);
    expect(cli.stdout.join('\n')).not.toContain('tk_abcdefghijklmnop');
    expect(cli.stdout.join('\n')).not.toContain(file.channels[0]?.replyTopic ?? 'none');
    expect(await runPhone(['remove', 'ntfy'], cli)).toBe(0);
    expect(await runPhone(['remove', 'ntfy'], cli)).toBe(1);
    expect(cli.stderr.at(-1)).toBe('lookout: no phone channel "ntfy" (see lookout phone list)');
  });

  it('R90 bad arguments are a usage error (exit 2): http to another machine, no topic, a token for telegram, an unknown mode', async () => {
    for (const args of [
      ['add', 'ntfy', 'http://ntfy.example.com/t'],
      ['add', 'ntfy', 'ntfy.sh'],
      ['add', 'telegram', '--token', 'x'],
      ['mode', 'sometimes'],
      ['frobnicate'],
      ['list', 'x'],
    ])
      await expect(runPhone(args, io())).rejects.toBeInstanceOf(UsageError);
    expect(ntfyTarget('http://127.0.0.1:8080/base/topic')).toEqual({ server: 'http://127.0.0.1:8080/base', topic: 'topic' });
    expect(ntfyTarget('https://ntfy.example.com/mine/')).toEqual({ server: 'https://ntfy.example.com', topic: 'mine' });
  });

  it('R90 R94 phone test sends one message per channel; a refusal exits 1 saying why; doctor shows the last success or error', async () => {
    const standin = new NtfyStandin();
    const server = await standin.start();
    cleanups.push(() => standin.stop());
    const cli = io();
    expect(await runPhone(['add', 'ntfy', `${server}/lookout-me`], cli)).toBe(0);
    expect(await runPhone(['test'], cli)).toBe(0);
    expect(standin.messages.map((message) => message.topic)).toEqual(['lookout-me']);
    const home = cli.env.LOOKOUT_HOME ?? '';
    expect(phoneReport(home, Date.now()).channels[0]?.health).toMatch(/^last sent \d{4}-/);
    standin.protect('lookout-me', ['tk_right']);
    expect(await runPhone(['test'], cli)).toBe(1);
    expect(cli.stderr.at(-1)).toMatch(/^lookout: ntfy: ntfy 127\.0\.0\.1:\d+\/lookout-me: HTTP 401: unauthorized \(check the access token/);
    const report = phoneReport(home, Date.now());
    expect(report.channels[0]).toMatchObject({ failing: true, health: expect.stringMatching(/last error .*HTTP 401/) });
    expect(phoneProblems(report)).toHaveLength(1);
    expect(phoneLines(report)[1]).toBe('phone (mode away)');
  });

  it('R90 add telegram reads the bot token from standard input, never the command line, and refuses one that is not a token', async () => {
    const cli = io('not a token');
    expect(await runPhone(['add', 'telegram'], cli)).toBe(1);
    expect(cli.stderr.at(-1)).toMatch(/not a bot token/);
    const real = io('123456789:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
    // A Bot API that cannot be reached (port 9, discard): finding the chat fails and says why.
    real.env.LOOKOUT_TELEGRAM_API = 'http://127.0.0.1:9';
    expect(await runPhone(['add', 'telegram'], real)).toBe(1);
    expect(real.stderr).toContain('send any message to your bot now (from the Telegram account that should answer)…');
  });
});
