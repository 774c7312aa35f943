// A virtual display, a private D-Bus session and dunst, for the tests that read what a real
// notification daemon showed. Each step of a script waits for its condition, at most 20 s.
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterAll } from 'vitest';

const TOOLS = ['Xvfb', 'dbus-run-session', 'dunst', 'dunstctl', 'notify-send'];

/** The programs missing here (the test skips, saying which). */
export function missingTools(): string[] {
  return TOOLS.filter((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0);
}

/** A shell loop that waits until `condition` holds, at most 20 s. */
export const poll = (condition: string): string => `n=0; until ${condition} || [ $n -ge 200 ]; do n=$((n+1)); sleep 0.1; done`;

/** dunst started with `config` (or its defaults), and the wait until it owns the notification name. */
export function startDunst(config: string | null): string[] {
  const owned =
    'dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus.NameHasOwner string:org.freedesktop.Notifications 2>/dev/null | grep -q true';
  return [`dunst${config === null ? '' : ` -config "${config}"`} >/dev/null 2>&1 & DUNST=$!`, poll(`{ ${owned}; }`)];
}

/** A virtual display for the file's tests (stopped after them). */
export function virtualDisplay(first: number): { display: string; ready: () => Promise<void> } {
  const display = `:${first + Math.floor(Math.random() * 9)}`;
  let xvfb: ChildProcess | null = null;
  afterAll(() => {
    xvfb?.kill();
  });
  return {
    display,
    async ready() {
      xvfb = spawn('Xvfb', [display, '-screen', '0', '1024x768x24'], { stdio: 'ignore' });
      const socket = `/tmp/.X11-unix/X${display.slice(1)}`;
      for (let waited = 0; waited < 20_000 && !existsSync(socket); waited += 50) await new Promise((done) => setTimeout(done, 50));
    },
  };
}
