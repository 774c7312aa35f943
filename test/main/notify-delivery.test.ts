// R40–R43 for real: a notification shown by a notification daemon (dunst) on a virtual display,
// read back from the daemon's history. Skips, saying why, where the parts are missing.
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
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
    // Xvfb is up once its socket is there.
    const socket = `/tmp/.X11-unix/X${display.slice(1)}`;
    for (let waited = 0; waited < 20_000 && !existsSync(socket); waited += 50) await new Promise((done) => setTimeout(done, 50));
    // One D-Bus session holds dunst, the notifier and the history query. Each step waits for its
    // condition (dunst owns the notification name; the notification is in the history), at most 20 s.
    const poll = (condition: string) => `n=0; until ${condition} || [ $n -ge 200 ]; do n=$((n+1)); sleep 0.1; done`;
    const owned = 'dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus.NameHasOwner string:org.freedesktop.Notifications 2>/dev/null | grep -q true';
    const script = `dunst >/dev/null 2>&1 & ${poll(`{ ${owned}; }`)}; "${process.execPath}" "${HELPER}"; ${poll('{ dunstctl close-all; dunstctl history | grep -q api-server; }')}; dunstctl history; kill %1`;
    const result = spawnSync('dbus-run-session', ['--', 'sh', '-c', script], { env: { ...process.env, DISPLAY: display }, encoding: 'utf8', timeout: 50_000 });
    expect(result.stdout).toContain('sent');
    const history = JSON.parse(result.stdout.slice(result.stdout.indexOf('{'))) as { data: { summary: { data: string }; body: { data: string } }[][] };
    const shown = history.data.flat();
    expect(shown.map((item) => item.summary.data)).toContain('Claude · api-server (main) needs you');
    expect(shown.map((item) => item.body.data)).toContain('Bash: npm publish');
  }, 90_000);
});
