// The phone in the popover's settings (issue 49, R90), in real headless Chromium over `lookout
// serve`: each channel with its last word, a test message that reaches an ntfy stand-in, the mode,
// a removal; a page in a browser may not add a channel (it would choose where prompts are sent and
// whose taps answer them), and the app's own window may.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PopoverHost } from '../../src/main/popover/popover-host';
import { Runtime } from '../../src/main/runtime/runtime';
import { emptyPhoneFile, savePhone } from '../../src/main/phone/phone-config';
import { NtfyStandin } from '../main/phone/ntfy-standin';
import { serve } from '../main/serve-process';
import { until } from '../wait';
import { CHROMIUM, launch } from './browser';

if (CHROMIUM === null) console.log('phone settings browser test skipped: Debian chromium is not installed (.ci/run installs it)');

let dir: string;
let env: Record<string, string>;
let standin: NtfyStandin;

const phoneFile = () => JSON.parse(readFileSync(join(dir, 'home', 'phone.json'), 'utf8')) as { mode: string; channels: { id: string; token: string | null }[] };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lookout-phone-settings-'));
  env = { HOME: dir, CLAUDE_CONFIG_DIR: join(dir, 'claude'), CODEX_HOME: join(dir, 'codex'), LOOKOUT_HOME: join(dir, 'home'), TZ: 'UTC' };
  mkdirSync(env.LOOKOUT_HOME ?? '', { recursive: true, mode: 0o700 });
  standin = new NtfyStandin();
  const server = await standin.start();
  const file = emptyPhoneFile();
  file.channels.push({ kind: 'ntfy', id: 'ntfy', server, topic: 'lookout-me', replyTopic: 'reply_0123456789abcdefghij', token: 'tk_secretsecretsecret' });
  savePhone(env.LOOKOUT_HOME ?? '', file);
});

afterAll(async () => {
  await standin.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(CHROMIUM === null)('the phone in the settings (Chromium, lookout serve)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('R90 the channel, never its token; Send a test reaches the phone and its last word shows; the mode and a removal are saved; no add form in a browser', async () => {
    const served = await serve(env);
    const page = await browser.newPage({ viewport: { width: 380, height: 560 } });
    page.setDefaultTimeout(20_000);
    try {
      await page.goto(served.url.toString());
      await page.getByRole('button', { name: 'Settings' }).click();
      const settings = page.getByRole('region', { name: 'Settings' });
      await settings.waitFor();
      const section = page.locator('fieldset.phone');
      await section.getByText(`ntfy: ntfy ${new URL(standin.url).host}/lookout-me`).waitFor();
      expect(await section.textContent()).toContain('nothing sent yet');
      expect(await page.textContent('body')).not.toContain('tk_secret');
      // A browser page may not choose where notifications go: no add form, a hint instead.
      expect(await section.getByRole('button', { name: 'Add ntfy' }).count()).toBe(0);
      expect(await section.textContent()).toContain('Add a channel in the Lookout app or with `lookout phone add`');
      await section.getByRole('button', { name: 'Send a test' }).click();
      await until('the test message at the phone', () =>
        standin.messages.some((message) => message.topic === 'lookout-me' && /A test from Lookout/.test(message.message)),
      );
      await page.getByRole('status').filter({ hasText: 'Test sent.' }).first().waitFor();
      await section.getByText(/^last sent \d{4}-/).waitFor();
      await section.getByRole('checkbox', { name: /Send every notification to the phone/ }).click();
      await until('phone.json says always', () => phoneFile().mode === 'always');
      await page.waitForFunction(() => document.querySelector<HTMLInputElement>('fieldset.phone input[type=checkbox]')?.checked === true);
      await section.getByRole('button', { name: 'Remove phone channel ntfy' }).click();
      await until('the channel removed', () => phoneFile().channels.length === 0);
      await section.getByText('None.').waitFor();
    } finally {
      await page.close();
      await served.stop();
    }
  });
});

describe('adding a phone channel from the popover (issue 49, R90)', () => {
  it("R90 only the app's own window adds an ntfy topic; a served page is refused and nothing is written", async () => {
    const home = mkdtempSync(join(tmpdir(), 'lookout-phone-add-'));
    const runtime = new Runtime({
      env: { HOME: home, LOOKOUT_HOME: join(home, 'home'), CLAUDE_CONFIG_DIR: join(home, 'claude'), CODEX_HOME: join(home, 'codex') },
      clock: Date.now,
      notifier: null,
      onProblem: () => undefined,
      hosts: false,
      answering: false,
    });
    try {
      await runtime.start();
      const command = { type: 'phone-add-ntfy', target: 'ntfy.sh/my-lookout-topic', token: null } as const;
      const page = await new PopoverHost(runtime, Date.now, false).command(command);
      expect(page).toEqual({ ok: false, error: 'a phone channel is added only in the Lookout app or with lookout phone add' });
      const app = new PopoverHost(runtime, Date.now, true);
      expect(await app.command(command)).toEqual({ ok: true });
      const written = JSON.parse(readFileSync(join(home, 'home', 'phone.json'), 'utf8')) as {
        channels: { server: string; topic: string; replyTopic: string }[];
      };
      expect(written.channels).toEqual([expect.objectContaining({ server: 'https://ntfy.sh', topic: 'my-lookout-topic' })]);
      expect(written.channels[0]?.replyTopic).toMatch(/^lk_[A-Za-z0-9_-]{24}$/);
      expect(app.state()?.settings.phone?.channels.map((channel) => channel.line)).toEqual(['ntfy: ntfy ntfy.sh/my-lookout-topic']);
      // A malformed target is refused with its one line.
      expect(await app.command({ ...command, target: 'not a topic' })).toMatchObject({ ok: false, error: expect.stringMatching(/takes <server>\/<topic>/) });
    } finally {
      await runtime.dispose();
      rmSync(home, { recursive: true, force: true });
    }
  });
});
