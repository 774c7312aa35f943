// R40–R43 for real: a notification shown by a notification daemon (dunst) on a virtual display,
// read back from the daemon's history. Skips, saying why, where the parts are missing.
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const HELPER = resolve(__dirname, '../../test-artifacts/helpers/notify-helper.cjs');
const tools = ['Xvfb', 'dbus-run-session', 'dunst', 'dunstctl', 'notify-send'];
const missing = tools.filter((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0);
if (missing.length > 0) console.log(`notification delivery test skipped: missing ${missing.join(', ')} (.ci/run installs them)`);

const display = `:${90 + Math.floor(Math.random() * 9)}`;
let xvfb: ChildProcess | null = null;
afterAll(() => {
  xvfb?.kill();
});

describe.skipIf(missing.length > 0)('notification delivery (Xvfb + dbus + dunst)', () => {
  it('R43 the notification reaches the daemon with who, where and why', async () => {
    xvfb = spawn('Xvfb', [display, '-screen', '0', '1024x768x24'], { stdio: 'ignore' });
    await new Promise((done) => setTimeout(done, 500));
    // One D-Bus session holds dunst, the notifier and the history query.
    const script = `dunst >/dev/null 2>&1 & sleep 0.7; "${process.execPath}" "${HELPER}"; sleep 0.3; dunstctl close-all; sleep 0.2; dunstctl history; kill %1`;
    const result = spawnSync('dbus-run-session', ['--', 'sh', '-c', script], { env: { ...process.env, DISPLAY: display }, encoding: 'utf8', timeout: 20_000 });
    expect(result.stdout).toContain('sent');
    const history = JSON.parse(result.stdout.slice(result.stdout.indexOf('{'))) as { data: { summary: { data: string }; body: { data: string } }[][] };
    const shown = history.data.flat();
    expect(shown.map((item) => item.summary.data)).toContain('Claude · api-server (main) needs you');
    expect(shown.map((item) => item.body.data)).toContain('Bash: npm publish');
  }, 30_000);
});
