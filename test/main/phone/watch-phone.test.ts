// Issue 49 as a person runs it: `lookout watch --phone` (the built command line, a real process)
// sends a Claude permission prompt to an ntfy stand-in, and Allow tapped there answers the hook.
import { existsSync, mkdirSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { findAnswerHook } from '../../../src/providers';
import { writeSpool } from '../../../src/main/hooks/spool-writer';
import { spoolFolder } from '../../../src/main/store/home';
import { askLookout } from '../../../src/main/answer/hook-client';
import { emptyPhoneFile, savePhone } from '../../../src/main/phone/phone-config';
import { phoneLockPath } from '../../../src/main/phone/phone-lock';
import { fixtureHomes } from '../fixture-home';
import { WatchProcess } from '../watch-process';
import { waitFor } from '../../wait';
import { NtfyStandin } from './ntfy-standin';

const { home } = fixtureHomes('lk-watch-phone-');
const NOW = '2026-11-29T12:00:03.000Z';
const SESSION = 'c1a00000-0000-4000-8000-000000000010';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('lookout watch --phone (issue 49)', () => {
  it('R91 R92 watch --phone sends the prompt to the phone and Allow there runs the command; the lock goes with the process', async () => {
    const env = home(['fresh-tool']);
    const lookoutHome = env.LOOKOUT_HOME ?? '';
    mkdirSync(lookoutHome, { recursive: true, mode: 0o700 });
    const standin = new NtfyStandin();
    const server = await standin.start();
    cleanups.push(() => standin.stop());
    const file = emptyPhoneFile();
    file.channels.push({ kind: 'ntfy', id: 'ntfy', server, topic: 'lookout-me', replyTopic: 'reply_0123456789abcdefghij', token: null });
    savePhone(lookoutHome, file);
    const started = Date.now();
    const watch = new WatchProcess(['--phone', '--now', NOW], env);
    const exited = new Promise<number | null>((resolve) => watch.child.on('exit', (code) => resolve(code)));
    cleanups.push(async () => {
      watch.child.kill('SIGTERM');
      await exited;
    });
    await watch.until(() => true);
    await waitFor(
      'the reply topic subscribed',
      () => standin.subscribers === 1 || undefined,
      () => watch.stderr,
    );
    expect(existsSync(phoneLockPath(lookoutHome))).toBe(true);
    const hook = findAnswerHook('claude-answer')?.hook;
    if (hook === undefined) throw new Error('Claude has an answering hook');
    const payload = { hook_event_name: 'PermissionRequest', session_id: SESSION, cwd: '/home/me/app', tool_name: 'Bash', tool_input: { command: 'npm test' } };
    writeSpool(spoolFolder(lookoutHome), 'claude', 'hook', JSON.stringify(payload), Date.parse(NOW) + (Date.now() - started));
    const printed = askLookout(lookoutHome, hook, payload, 60_000);
    const sent = await waitFor(
      'the phone message with Allow and Deny',
      () => standin.messages.find((item) => item.actions !== undefined),
      () => `${watch.stderr}\n${JSON.stringify(standin.messages)}`,
    );
    expect(sent.message).toBe('Bash: npm test');
    expect(await standin.tap(sent, 'Allow')).toBe(200);
    expect(await printed).toBe('{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}\n');
    watch.child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(existsSync(phoneLockPath(lookoutHome))).toBe(false);
  });
});
