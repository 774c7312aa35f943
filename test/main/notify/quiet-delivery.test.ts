// Issue 16 for real: `lookout watch --notify` within quiet hours shows nothing in the notification
// daemon (dunst, under Xvfb and D-Bus); when the quiet ends, one digest is shown. The watch's clock
// starts seconds before the end of the window (--now) and flows on. Skips, saying why, without the
// parts. Fixture: Claude Code 2.1.143.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI } from '../cli-process';
import { missingTools, poll, startDunst, virtualDisplay } from '../dunst-session';
import { FIXTURES } from '../../providers/fixture-roots';

const missing = missingTools();
if (missing.length > 0) console.log(`quiet hours delivery test skipped: missing ${missing.join(', ')} (.ci/run installs them)`);

// Made only when the test runs: a file whose every test is skipped runs no afterAll.
const base = missing.length === 0 ? mkdtempSync(join(tmpdir(), 'lookout-quiet-dunst-')) : '';
const { display, ready } = virtualDisplay(60);
afterAll(() => {
  if (base !== '') rmSync(base, { recursive: true, force: true });
});

describe.skipIf(missing.length > 0)('quiet hours with a real notification daemon', () => {
  it('nothing is shown while quiet; one digest when it ends', async () => {
    await ready();
    cpSync(join(FIXTURES, 'claude', 'question-pending'), join(base, 'claude'), { recursive: true });
    const home = join(base, 'home');
    mkdirSync(home, { recursive: true, mode: 0o700 });
    // Quiet until 12:03 UTC; the watch starts at 12:02:48 (its clock flows on from there).
    writeFileSync(join(home, 'settings.json'), JSON.stringify({ quietHours: { from: '12:00', to: '12:03', timeZone: 'UTC' }, timings: { beat: 250 } }));
    const out = join(base, 'watch.out');
    const script = [
      ...startDunst(null),
      `"${process.execPath}" "${CLI}" watch --notify --json --now 2026-11-29T12:02:48.000Z >"${out}" 2>"${join(base, 'watch.err')}" & WATCH=$!`,
      // The first snapshot is out: the question was seen, within the quiet.
      poll(`[ -s "${out}" ]`),
      'echo "during: $(dunstctl count displayed) $(dunstctl count history)"',
      poll('[ "$(dunstctl count displayed)" -ge 1 ]'),
      'dunstctl close-all',
      'dunstctl history',
      'kill -INT $WATCH; wait $WATCH; kill $DUNST',
    ].join('\n');
    const env = { ...process.env, DISPLAY: display, CLAUDE_CONFIG_DIR: join(base, 'claude'), CODEX_HOME: join(base, 'codex'), LOOKOUT_HOME: home, HOME: base };
    const result = spawnSync('dbus-run-session', ['--', 'sh', '-c', script], { env, encoding: 'utf8', timeout: 80_000 });
    expect(result.status, `${result.stderr}\n${readFileSync(join(base, 'watch.err'), 'utf8')}`).toBe(0);
    expect(result.stdout).toContain('during: 0 0');
    const history = JSON.parse(result.stdout.slice(result.stdout.indexOf('{'))) as { data: { summary: { data: string }; body: { data: string } }[][] };
    const shown = history.data.flat();
    expect(shown.map((item) => item.summary.data)).toEqual(['While quiet: 1 session wanted you']);
    expect(shown[0]?.body.data).toContain('needs you: asks: Which database?');
  }, 100_000);
});
