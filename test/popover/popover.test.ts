// The popover in real headless Chromium, served by `lookout serve` over fixture roots: triage
// order, review and mute that persist, visits on selection, keys, and no console errors.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Snapshot } from '../../src/engine';
import { rowCounted } from '../../src/engine';
import { runCli } from '../main/cli-process';
import type { Served } from '../main/serve-process';
import { serve } from '../main/serve-process';
import { FIXTURES, fixtures } from '../providers/fixture-roots';
import { PROVIDERS } from '../../src/providers';
import { CHROMIUM, launch } from './browser';
import { until } from '../wait';

if (CHROMIUM === null) console.log('popover browser tests skipped: Debian chromium is not installed (.ci/run installs it)');

const NOW = '2026-11-29T12:02:00.000Z';
const ARTIFACTS = resolve(__dirname, '../../test-artifacts');
const CLAUDE = ['question-pending', 'tool-pending', 'failed-turn', 'working', 'long-finish', 'short-finish', 'hostile-title'];
const CODEX = ['working', 'failed-turn', 'tool-pending'];
const key = (provider: 'claude' | 'codex', name: string) => fixtures(provider).find((item) => item.name === name)?.meta.sessionKey ?? '';

let dir: string;
let env: Record<string, string>;
let served: Served;
let browser: Browser;
let page: Page;
const errors: string[] = [];

beforeAll(async () => {
  if (CHROMIUM === null) return;
  dir = mkdtempSync(join(tmpdir(), 'lookout-popover-'));
  for (const name of CLAUDE) cpSync(join(FIXTURES, 'claude', name), join(dir, 'claude'), { recursive: true });
  for (const name of CODEX) cpSync(join(FIXTURES, 'codex', name), join(dir, 'codex'), { recursive: true });
  env = { CLAUDE_CONFIG_DIR: join(dir, 'claude'), CODEX_HOME: join(dir, 'codex'), LOOKOUT_HOME: join(dir, 'home'), HOME: dir };
  served = await serve(env, ['--now', NOW]);
  browser = await launch();
});

afterAll(async () => {
  if (CHROMIUM === null) return;
  await browser?.close();
  await served?.stop();
  rmSync(dir, { recursive: true, force: true });
});

beforeEach(async () => {
  if (CHROMIUM === null) return;
  await page?.close();
  page = await browser.newPage({ viewport: { width: 380, height: 560 }, deviceScaleFactor: 2 });
  // Waits are for conditions; the bound only ends a wait that will not succeed, so it allows for a loaded machine.
  page.setDefaultTimeout(20_000);
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  await page.goto(served.url.toString());
  await page.waitForSelector('[data-session-key]');
});

const store = () =>
  JSON.parse(readFileSync(join(dir, 'home', 'store.json'), 'utf8')) as {
    reviews: Record<string, { state: string }>;
    visits: Record<string, unknown>;
    mutes: Record<string, unknown>;
  };
const rowSelector = (sessionKey: string) => `[data-session-key="${sessionKey}"]`;
const visibleKeys = () => page.$$eval('[data-session-key]', (items) => items.map((item) => item.getAttribute('data-session-key')));
async function countIs(count: number): Promise<void> {
  const started = Date.now();
  for (;;) {
    const now = await page.getAttribute('[data-attention-count]', 'data-attention-count');
    if (now === String(count)) return;
    if (Date.now() - started > 20_000) throw new Error(`attention count stayed ${now}, expected ${count}; page: ${await page.textContent('body')}`);
    await new Promise((done) => setTimeout(done, 50));
  }
}
describe.skipIf(CHROMIUM === null)('the popover in Chromium (lookout serve)', () => {
  it('R31 rows come in triage order, each carrying its key, workflow and band', async () => {
    const status = JSON.parse(runCli(['status', '--json', '--now', NOW], env).stdout) as Snapshot;
    // Idle rows sit in a collapsed group; everything above them shows in the engine's order.
    const expected = status.sessions
      .filter((row) => ['needs-you', 'failed', 'ready-for-review', 'flagged', 'needs-review', 'finished', 'working', 'unknown'].includes(row.band))
      .map((row) => row.key);
    expect(await visibleKeys()).toEqual(expected);
    const first = await page.$(rowSelector(expected[0] ?? ''));
    expect(await first?.getAttribute('data-band')).toBe('needs-you');
    expect(await first?.getAttribute('data-workflow')).toBe('needs-input');
    expect(await page.getAttribute('[data-attention-count]', 'data-attention-count')).toBe(String(status.attention.count));
  });

  it('R30 selecting a row records a visit', async () => {
    const failed = key('claude', 'failed-turn');
    await page.click(`${rowSelector(failed)} .row-main`);
    await until('the page to show it', () => {
      try {
        return store().visits[failed] !== undefined;
      } catch {
        return false;
      }
    });
  });

  it('§4 changing the review state persists to the store and moves the row', async () => {
    const target = key('codex', 'working');
    await page.click(`${rowSelector(target)} .row-main`);
    await page.getByRole('button', { name: 'Review state' }).click();
    await page.getByRole('menuitemradio', { name: 'flagged' }).click();
    await until('the page to show it', () => store().reviews[target]?.state === 'flagged');
    // Still working: the workflow shows work until the turn ends (R20); the rank is flagged (R31).
    await page.waitForSelector(`${rowSelector(target)}[data-band="flagged"]`);
  });

  it('R60 muting moves the row to Muted and lowers the count', async () => {
    const before = Number(await page.getAttribute('[data-attention-count]', 'data-attention-count'));
    const target = key('claude', 'question-pending');
    await page.click(`${rowSelector(target)} .row-main`);
    await page.getByRole('button', { name: 'Mute', exact: true }).click();
    await page.getByRole('menuitem', { name: 'for 1 hour' }).click();
    await countIs(before - 1);
    await until('the page to show it', () => store().mutes[target] !== undefined);
    // Rows hold their place while the pointer is over the list; it moves once the pointer leaves.
    expect(await page.$(rowSelector(target))).not.toBeNull();
    await page.hover('h1');
    await page.waitForSelector(rowSelector(target), { state: 'detached' });
    await page.getByRole('button', { name: /^Muted \(1\)/ }).click();
    // Still the selected row: its actions are open.
    expect(await page.getAttribute(rowSelector(target), 'aria-current')).toBe('true');
    await page.getByRole('button', { name: 'Unmute' }).click();
    await countIs(before);
  });

  it('keys: j/k and arrows move, Ctrl+J jumps to the next row wanting attention, Escape closes explain', async () => {
    // The list may change as the served clock runs on: each step is checked against the list as it is.
    const current = () => page.getAttribute('[aria-current="true"]', 'data-session-key');
    await page.keyboard.press('j');
    expect(await current()).toBe((await visibleKeys())[0]);
    await page.keyboard.press('ArrowDown');
    let keys = await visibleKeys();
    expect(keys.indexOf(await current())).toBe(1);
    await page.keyboard.press('k');
    keys = await visibleKeys();
    expect(keys.indexOf(await current())).toBe(0);
    await page.keyboard.press('Control+j');
    const jumped = await current();
    expect(jumped).not.toBe(keys[0]);
    expect(['needs-you', 'failed', 'ready-for-review', 'flagged', 'needs-review']).toContain(await page.getAttribute('[aria-current="true"]', 'data-band'));
    await page.keyboard.press('e');
    await page.getByRole('dialog', { name: 'Explain' }).waitFor();
    expect(await page.getByRole('dialog', { name: 'Explain' }).textContent()).toContain('Decided by');
    await page.keyboard.press('Escape');
    expect(await page.getByRole('dialog', { name: 'Explain' }).count()).toBe(0);
    await page.keyboard.press('/');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Filter sessions');
  });

  it('keys never act by accident: M then ↓ mutes nothing; Enter on Explain explains, it does not open', async () => {
    const target = key('claude', 'question-pending');
    await page.click(`${rowSelector(target)} .row-main`);
    await page.waitForSelector(`${rowSelector(target)} [aria-label="Mute"]`);
    // M moves focus to the row's Mute control (pressed again if a render was under way).
    for (let attempt = 0; attempt < 3; attempt += 1) {
      await page.keyboard.press('m');
      if ((await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))) === 'Mute') break;
    }
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Mute');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.getByRole('menu', { name: 'Mute' }).waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Escape');
    await page.getByRole('menu', { name: 'Mute' }).waitFor({ state: 'detached' });
    const opened: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/command') && (request.postData() ?? '').includes('"open"')) opened.push(request.postData() ?? '');
    });
    await page.getByRole('button', { name: 'Explain' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Explain' }).waitFor();
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Close explanation');
    await page.keyboard.press('Escape');
    expect(opened).toEqual([]);
    const stored = (await import('node:fs')).existsSync(join(dir, 'home', 'store.json')) ? store().mutes : {};
    expect(stored[target]).toBeUndefined();
  });

  it('R33 the global key of the tray: the next session wanting attention is selected, pressed again the one after; a request is followed once (issue 15)', async () => {
    // The tray's request reaches the page inside a pushed state; here it is laid on the last state the page got.
    await page.addInitScript(() => {
      const Real = window.EventSource;
      const holder = window as unknown as { lookoutSource?: EventSource; lookoutLast?: string; lookoutJump?: (serial: number) => void };
      window.EventSource = class extends Real {
        constructor(url: string | URL, init?: EventSourceInit) {
          super(url, init);
          holder.lookoutSource = this;
          this.addEventListener('message', (event) => {
            if (event.isTrusted) holder.lookoutLast = (event as MessageEvent<string>).data;
          });
        }
      };
      holder.lookoutJump = (serial) => {
        const state = JSON.parse(holder.lookoutLast ?? '{}') as Record<string, unknown>;
        holder.lookoutSource?.dispatchEvent(new MessageEvent('message', { data: JSON.stringify({ ...state, request: { view: 'list', serial, jump: true } }) }));
      };
    });
    await page.goto(served.url.toString());
    await page.waitForSelector('[data-session-key]');
    const jump = (serial: number) => page.evaluate((value) => (window as unknown as { lookoutJump: (serial: number) => void }).lookoutJump(value), serial);
    const current = () => page.getAttribute('[aria-current="true"]', 'data-session-key');
    const wanting = ['needs-you', 'failed', 'ready-for-review', 'flagged', 'needs-review'];
    expect(await page.locator('[aria-current="true"]').count()).toBe(0);
    await jump(101);
    await page.waitForSelector('[aria-current="true"]');
    const first = await current();
    expect(wanting).toContain(await page.getAttribute('[aria-current="true"]', 'data-band'));
    await jump(102);
    const started = Date.now();
    while ((await current()) === first && Date.now() - started < 20_000) await new Promise((done) => setTimeout(done, 50));
    const second = await current();
    expect(second).not.toBe(first);
    expect(wanting).toContain(await page.getAttribute('[aria-current="true"]', 'data-band'));
    // The same request pushed again (every state carries it until the next) moves nothing.
    await jump(102);
    await page.keyboard.press('Shift');
    expect(await current()).toBe(second);
  });

  it('R33 Ctrl+J says "0 waiting" when nothing wants attention', async () => {
    // Nothing waits once every counted row is muted.
    const counted = (JSON.parse(runCli(['status', '--json', '--now', NOW], env).stdout) as Snapshot).sessions.filter((row) => rowCounted(row));
    for (const row of counted) runCli(['mute', row.key, '--now', NOW], env);
    try {
      await countIs(0);
      await page.keyboard.press('Control+j');
      await page.getByRole('status').filter({ hasText: '0 waiting' }).first().waitFor();
      expect(await page.textContent('.empty')).toContain('All quiet — 0 waiting');
    } finally {
      for (const row of counted) runCli(['unmute', row.key, '--now', NOW], env);
    }
  }, 90_000); // a command-line process per counted row, twice: slow on a loaded machine

  it('transcript text with HTML and script renders as text', async () => {
    const hostile = key('claude', 'hostile-title');
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
    await page.click(`${rowSelector(hostile)} .row-main`);
    const text = await page.textContent(rowSelector(hostile));
    expect(text).toContain('<script>window.pwned=2</script>');
    expect(text).toContain('<b onmouseover="window.pwned=3">bold?</b>');
    expect(await page.$$(`${rowSelector(hostile)} script, ${rowSelector(hostile)} img, ${rowSelector(hostile)} b`)).toHaveLength(0);
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
  });

  it('light and dark themes, and a screenshot for the README', async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.emulateMedia({ colorScheme: 'dark' });
    const dark = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await page.emulateMedia({ colorScheme: 'light' });
    const light = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(dark).not.toBe(light);
    await page.click(`${rowSelector(key('claude', 'question-pending'))} .row-main`);
    await page.screenshot({ path: join(ARTIFACTS, 'popover.png') });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: join(ARTIFACTS, 'popover-dark.png') });
  });

  it("Mute this project: a rule on the row's folder mutes it; the settings view lists the rules, removes one and adds one (issue 16)", async () => {
    const target = key('claude', 'question-pending');
    const settingsFile = () =>
      JSON.parse(readFileSync(join(dir, 'home', 'settings.json'), 'utf8')) as { rules?: { id: string; when: { folder?: string }; mute?: boolean }[] };
    // The store is written by the first fact: absent until then.
    const mutes = (): Record<string, unknown> => (existsSync(join(dir, 'home', 'store.json')) ? store().mutes : {});
    await page.click(`${rowSelector(target)} .row-main`);
    await page.getByRole('button', { name: 'Mute', exact: true }).click();
    await page.getByRole('menuitem', { name: 'this project (a rule)' }).click();
    try {
      await until('the page to show it', () => mutes()[target] !== undefined);
      const rule = settingsFile().rules?.find((item) => item.mute === true);
      expect(rule).toMatchObject({ id: 'mute-app', when: { folder: '/home/me/app/**' }, mute: true });
      await page.getByRole('button', { name: 'Settings' }).click();
      await page.getByRole('region', { name: 'Settings' }).waitFor();
      expect(await page.textContent('.settings')).toContain('mute-app v1: folder /home/me/app/** → mute');
      await page.getByRole('button', { name: 'Remove rule mute-app' }).click();
      await until('the page to show it', () => settingsFile().rules?.some((item) => item.id === 'mute-app') === false);
      await page.waitForFunction(() => document.querySelector('.settings')?.textContent?.includes('mute-app') === false);
      // A rule of any folder, from the form; a folder that is not absolute is refused, and nothing is written.
      await page.getByRole('textbox', { name: 'Rule folder' }).fill('work/**');
      await page.getByRole('button', { name: 'Add rule' }).click();
      await page.getByRole('status').filter({ hasText: 'an absolute folder or one under ~/' }).first().waitFor();
      await page.getByRole('textbox', { name: 'Rule folder' }).fill('/home/me/elsewhere/**');
      await page.getByRole('combobox', { name: 'Rule action' }).selectOption('notify-never');
      await page.getByRole('button', { name: 'Add rule' }).click();
      await until('the page to show it', () => settingsFile().rules?.some((item) => item.when.folder === '/home/me/elsewhere/**') === true);
      expect(settingsFile().rules?.filter((item) => item.when.folder === 'work/**')).toEqual([]);
      await page.waitForFunction(
        () => document.querySelector('.settings')?.textContent?.includes('rule v1: folder /home/me/elsewhere/** → notify never') === true,
      );
      await page.getByRole('button', { name: '← Back' }).click();
    } finally {
      // The rule muted every session of the folder (the facts stay once it is gone): lifted for the tests after.
      for (const muted of Object.keys(mutes())) runCli(['unmute', muted, '--now', NOW], env);
    }
  }, 90_000);

  it('settings: saving writes settings.json; hooks install and remove only on request (issue 6)', async () => {
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('region', { name: 'Settings' }).waitFor();
    expect(await page.textContent('.settings')).toContain('claude: not installed');
    await page.getByRole('checkbox', { name: 'When a long job finishes' }).uncheck();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect(JSON.parse(readFileSync(join(dir, 'home', 'settings.json'), 'utf8')).notifications.finished).toBe(false);
    await page.getByRole('button', { name: 'Install Claude Code hooks' }).click();
    await page.waitForFunction(() => document.querySelector('.settings')?.textContent?.includes('claude: installed') === true);
    expect(Object.keys(JSON.parse(readFileSync(join(dir, 'claude', 'settings.json'), 'utf8')).hooks)).toContain('PermissionRequest');
    await page.getByRole('button', { name: 'Remove Claude Code hooks' }).click();
    await page.waitForFunction(() => document.querySelector('.settings')?.textContent?.includes('claude: not installed') === true);
    expect((await import('node:fs')).existsSync(join(dir, 'claude', 'settings.json'))).toBe(false);
    await page.getByRole('button', { name: '← Back' }).click();
  });

  it("every agent in the registry is in the quick filter and in the settings' folders list (issue 24)", async () => {
    const options = await page.$$eval('select[aria-label="Quick filter"] option', (items) =>
      items.map((item) => ({ value: item.getAttribute('value'), text: item.textContent })),
    );
    for (const provider of PROVIDERS) expect(options).toContainEqual({ value: `provider:${provider.id}`, text: provider.shortName });
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('region', { name: 'Settings' }).waitFor();
    const text = (await page.textContent('.settings')) ?? '';
    for (const provider of PROVIDERS) {
      expect(text).toContain(`${provider.name}: `);
      expect(text).toContain(provider.root.env);
    }
    await page.getByRole('button', { name: '← Back' }).click();
  });

  it('quiet hours from the settings view, by keyboard: written to settings.json; a time that is no time is refused, by the page and by the runtime (issue 16)', async () => {
    const quietHours = () => (JSON.parse(readFileSync(join(dir, 'home', 'settings.json'), 'utf8')) as { quietHours?: unknown }).quietHours ?? null;
    const quietSwitch = page.getByRole('checkbox', { name: /^Quiet hours every day/ });
    const start = page.getByRole('textbox', { name: 'Quiet hours start (HH:MM)' });
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('region', { name: 'Settings' }).waitFor();
    expect(await page.getByRole('group', { name: 'Quiet hours' }).textContent()).toContain("Times in this machine's time zone");
    expect(await start.isDisabled()).toBe(true);
    // Space turns them on; Tab reaches the start, then the end.
    await quietSwitch.focus();
    await page.keyboard.press('Space');
    await page.keyboard.press('Tab');
    expect(await start.evaluate((field) => field === document.activeElement)).toBe(true);
    await page.keyboard.press('Control+A');
    await page.keyboard.type('25:00');
    expect(await start.getAttribute('aria-invalid')).toBe('true');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'quiet hours start: a time of day as HH:MM, like 22:00' }).first().waitFor();
    expect(quietHours()).toBeNull();
    await start.focus();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('22:30');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('06:45');
    await page.getByRole('button', { name: 'Save' }).click();
    await until('the page to show it', () => JSON.stringify(quietHours()) === JSON.stringify({ from: '22:30', to: '06:45', timeZone: null }));
    await page.getByRole('status').filter({ hasText: 'Saved.' }).first().waitFor();
    // The runtime refuses, through the contract, what the page would not send; nothing is written.
    for (const bad of [
      { from: '7:30', to: '06:45' },
      { from: '22:00', to: '22:00' },
      { from: '22:00\n', to: '06:00' },
      { from: '22:00', to: '06:00', timeZone: 'Mars/Olympus' },
      'at night',
    ]) {
      const response = await fetch(new URL('command', served.url), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-lookout-token': served.token },
        body: JSON.stringify({ type: 'settings', quietHours: bad }),
      });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: string }).error).toMatch(/^refused: /);
    }
    expect(quietHours()).toEqual({ from: '22:30', to: '06:45', timeZone: null });
    // Off again with the same switch: settings.json says none.
    await quietSwitch.uncheck();
    await page.getByRole('button', { name: 'Save' }).click();
    await until('the page to show it', () => quietHours() === null);
    await page.getByRole('button', { name: '← Back' }).click();
  });

  it('no console errors along the way', () => {
    expect(errors).toEqual([]);
  });
});
