// R40–R43 for real: a notification shown by a notification daemon (dunst) on a virtual display,
// read back from the daemon's history. Skips, saying why, where the parts are missing.
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { missingTools, poll, startDunst, virtualDisplay } from '../dunst-session';

const HELPER = resolve(__dirname, '../../../test-artifacts/helpers/notify-helper.cjs');
const missing = missingTools();
if (missing.length > 0) console.log(`notification delivery test skipped: missing ${missing.join(', ')} (.ci/run installs them)`);
const { display, ready } = virtualDisplay(90);

describe.skipIf(missing.length > 0)('notification delivery (Xvfb + dbus + dunst)', () => {
  it('R43 the notification reaches the daemon with who, where and why', async () => {
    await ready();
    // One D-Bus session holds dunst, the notifier and the history query; each step waits for its condition.
    const script = [
      ...startDunst(null),
      `"${process.execPath}" "${HELPER}"`,
      poll('{ dunstctl close-all; dunstctl history | grep -q api-server; }'),
      'dunstctl history',
      'kill $DUNST',
    ].join('\n');
    const result = spawnSync('dbus-run-session', ['--', 'sh', '-c', script], { env: { ...process.env, DISPLAY: display }, encoding: 'utf8', timeout: 50_000 });
    expect(result.stdout).toContain('sent');
    const history = JSON.parse(result.stdout.slice(result.stdout.indexOf('{'))) as { data: { summary: { data: string }; body: { data: string } }[][] };
    const shown = history.data.flat();
    expect(shown.map((item) => item.summary.data)).toContain('Claude · api-server (main) needs you');
    expect(shown.map((item) => item.body.data)).toContain('Bash: npm publish');
  }, 90_000);
});
