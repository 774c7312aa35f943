// Issue 15 for real: `lookout watch --notify` shows a notification with Open, Mute 1 hour and Mark
// reviewed through libnotify's notify-send; the user picks Mute 1 hour in dunst's action menu (a
// stand-in for dmenu picks it), and Lookout mutes the session. Xvfb, D-Bus and dunst, as in
// notify-delivery.test.ts; skips, saying why, where a part is missing. Fixture: Claude Code 2.1.143.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI } from '../cli-process';
import { missingTools, poll, startDunst, virtualDisplay } from '../dunst-session';
import { FIXTURES, fixtures } from '../../providers/fixture-roots';

const missing = missingTools();
const actions = missing.length === 0 && (spawnSync('notify-send', ['--help'], { encoding: 'utf8' }).stdout ?? '').includes('--action');
if (missing.length > 0) console.log(`notification action test skipped: missing ${missing.join(', ')} (.ci/run installs them)`);
else if (!actions) console.log('notification action test skipped: this notify-send has no --action (libnotify older than 0.7.10)');

// Made only when the test runs: a file whose every test is skipped runs no afterAll.
const base = actions ? mkdtempSync(join(tmpdir(), 'lookout-actions-dunst-')) : '';
const { display, ready } = virtualDisplay(80);
afterAll(() => {
  if (base !== '') rmSync(base, { recursive: true, force: true });
});

describe.skipIf(!actions)('notification actions (Xvfb + D-Bus + dunst)', () => {
  it('Mute 1 hour picked in the notification mutes the session for an hour', async () => {
    await ready();
    cpSync(join(FIXTURES, 'claude', 'question-pending'), join(base, 'claude'), { recursive: true });
    const home = join(base, 'home');
    const target = fixtures('claude').find((item) => item.name === 'question-pending')?.meta.sessionKey ?? '';
    // dunst asks its menu program which action to take: this one picks "Mute 1 hour" from the list it is given.
    const menu = join(base, 'pick');
    writeFileSync(menu, '#!/bin/sh\ngrep -m1 "Mute 1 hour"\n', { mode: 0o755 });
    writeFileSync(join(base, 'dunstrc'), `[global]\n    dmenu = ${menu}\n`);
    const script = [
      ...startDunst(join(base, 'dunstrc')),
      `"${process.execPath}" "${CLI}" watch --notify --json --now 2026-11-29T12:02:00.000Z >/dev/null 2>"${join(base, 'watch.err')}" & WATCH=$!`,
      poll('[ "$(dunstctl count displayed)" -ge 1 ]'),
      'dunstctl context',
      // A mute entry is the only thing in the store with an "until".
      poll(`grep -q '"until"' "${join(home, 'store.json')}" 2>/dev/null`),
      'kill -INT $WATCH; wait $WATCH; kill $DUNST',
    ].join('\n');
    const env = { ...process.env, DISPLAY: display, CLAUDE_CONFIG_DIR: join(base, 'claude'), CODEX_HOME: join(base, 'codex'), LOOKOUT_HOME: home, HOME: base };
    const result = spawnSync('dbus-run-session', ['--', 'sh', '-c', script], { env, encoding: 'utf8', timeout: 80_000 });
    expect(result.status, `${result.stderr}\n${existsSync(join(base, 'watch.err')) ? readFileSync(join(base, 'watch.err'), 'utf8') : ''}`).toBe(0);
    const store = JSON.parse(readFileSync(join(home, 'store.json'), 'utf8')) as { mutes: Record<string, { until: string | null }> };
    const until = Date.parse(store.mutes[target]?.until ?? '');
    // An hour from the moment it was picked (the watch's clock flows on from --now).
    const picked = Date.parse('2026-11-29T12:02:00.000Z') + 3_600_000;
    expect(until).toBeGreaterThanOrEqual(picked);
    expect(until).toBeLessThan(picked + 80_000);
  }, 100_000);
});
