// Usage limits in the popover, in real headless Chromium over `lookout serve` (issue 46, R80–R83):
// the files Claude Code 2.1.328 and Codex 0.169.0 wrote in the live lab when their provider said the
// usage limit was reached, before and after the reset.
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Snapshot } from '../../src/engine';
import { runCli } from '../main/cli-process';
import { serve } from '../main/serve-process';
import { CHROMIUM, launch } from './browser';

if (CHROMIUM === null) console.log('usage-limit popover tests skipped: Debian chromium is not installed (.ci/run installs it)');

const LIVE = resolve(__dirname, '../fixtures/live');
const ARTIFACTS = resolve(__dirname, '../../test-artifacts');
const CLAUDE = join(LIVE, 'claude-2.1.328', 'usage-limit-hooks-off');
const CODEX = join(LIVE, 'codex-0.169.0', 'usage-limit-hooks-off');
const caseOf = (folder: string) => JSON.parse(readFileSync(join(folder, 'case.json'), 'utf8')) as { now: string; sessionKey: string };

let dir: string;
let env: Record<string, string>;
let browser: Browser;
const errors: string[] = [];

beforeAll(async () => {
  if (CHROMIUM === null) return;
  dir = mkdtempSync(join(tmpdir(), 'lookout-limits-'));
  cpSync(join(CLAUDE, 'home'), dir, { recursive: true });
  cpSync(join(CODEX, 'home'), dir, { recursive: true });
  env = { HOME: dir, CLAUDE_CONFIG_DIR: join(dir, '.claude'), CODEX_HOME: join(dir, '.codex'), LOOKOUT_HOME: join(dir, '.lookout'), TZ: 'UTC' };
  browser = await launch();
});

afterAll(async () => {
  if (CHROMIUM === null) return;
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The popover at `now`: the page, the snapshot `status --json` gives at the same instant. */
async function popoverAt(now: string): Promise<{ page: Page; snapshot: Snapshot; stop: () => Promise<unknown> }> {
  const served = await serve(env, ['--now', now]);
  const page = await browser.newPage({ viewport: { width: 380, height: 560 }, deviceScaleFactor: 2 });
  page.setDefaultTimeout(20_000);
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  await page.goto(served.url.toString());
  await page.waitForSelector('[data-session-key]');
  const snapshot = JSON.parse(runCli(['status', '--json', '--all', '--now', now], env).stdout) as Snapshot;
  return { page, snapshot, stop: async () => Promise.all([page.close(), served.stop()]) };
}

describe.skipIf(CHROMIUM === null)('usage limits in the popover (Chromium, lookout serve)', () => {
  it('R80 R81 R83 stopped by a limit: its own group, the reset, the agent’s words, a countdown, not counted; the header shows Codex’s windows', async () => {
    const claude = caseOf(CLAUDE);
    const codex = caseOf(CODEX);
    const { page, snapshot, stop } = await popoverAt(codex.now);
    try {
      const limited = snapshot.sessions
        .filter((row) => row.band === 'limited')
        .map((row) => row.key)
        .sort();
      expect(limited).toEqual([claude.sessionKey, codex.sessionKey].sort());
      expect(snapshot.attention).toMatchObject({ count: 0, limited: 2 });
      const row = page.locator(`[data-session-key="${claude.sessionKey}"]`);
      await expect.poll(() => row.getAttribute('data-band')).toBe('limited');
      expect(await row.getAttribute('data-workflow')).toBe('limited');
      const detail = (await row.locator('.detail').textContent()) ?? '';
      expect(detail).toContain('usage limit until');
      expect(detail).toContain("You've hit your 5-hour limit");
      expect(await row.locator('.age').textContent()).toMatch(/^in \d/);
      expect(await page.locator('.chip.limited').textContent()).toBe('◷ 2 stopped by a limit');
      expect(await page.locator('[data-attention-count]').getAttribute('data-attention-count')).toBe('0');
      const usage = (await page.locator('.usage').textContent()) ?? '';
      expect(usage).toMatch(/Codex: 5h 100% \(resets [^)]+\) · 7d 40%/);
      expect(await page.locator('.group', { hasText: 'Stopped by a usage limit' }).count()).toBe(1);
      await page.screenshot({ path: join(ARTIFACTS, 'popover-limited.png') });
    } finally {
      await stop();
    }
  });

  it('R81 at the reset: "can go on", counted, in the group before the limited ones', async () => {
    const claude = caseOf(CLAUDE);
    const before = JSON.parse(runCli(['status', '--json', '--all', '--now', claude.now], env).stdout) as Snapshot;
    const reset = before.sessions.find((row) => row.key === claude.sessionKey)?.resetsAt ?? null;
    expect(reset).not.toBeNull();
    const after = new Date(Date.parse(reset ?? '') + 60_000).toISOString();
    const { page, snapshot, stop } = await popoverAt(after);
    try {
      expect(snapshot.sessions.find((row) => row.key === claude.sessionKey)?.claim?.kind).toBe('limit-reset');
      const row = page.locator(`[data-session-key="${claude.sessionKey}"]`);
      await expect.poll(() => row.getAttribute('data-band')).toBe('limit-reset');
      expect(await row.locator('.detail').textContent()).toMatch(/usage limit reset at .+ — can go on/);
      expect(Number(await page.locator('[data-attention-count]').getAttribute('data-attention-count'))).toBeGreaterThanOrEqual(1);
      expect(await page.locator('.group', { hasText: 'Can go on: limit reset' }).count()).toBe(1);
      await page.screenshot({ path: join(ARTIFACTS, 'popover-limit-reset.png') });
    } finally {
      await stop();
    }
  });

  it('no console errors along the way', () => {
    expect(errors).toEqual([]);
  });
});
