// Issue 25 item 13: most Linux notification daemons read a notification's body as markup, so a
// transcript or another machine could show a link of its choosing, and `<` or `&` mangled the
// text. The body is escaped where a daemon reads markup; control and bidirectional characters are
// shown visibly, as the terminal shows them (`<U+202E>`, itself escaped); the title is plain text to every daemon.
import { spawnSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { notifySendArgv } from '../../../src/main/notify/libnotify';
import type { NotificationFactory } from '../../../src/tray/electron-notifier';
import { ElectronNotifier } from '../../../src/tray/electron-notifier';
import { CLI } from '../cli-process';
import { missingTools, poll, startDunst, virtualDisplay } from '../dunst-session';
import { FIXTURES } from '../../providers/fixture-roots';

const hostile = {
  claimIds: ['claude:k|needs-you|1'],
  keys: ['claude:k'],
  title: 'Claude · <b>app</b> & co\u001b]0;x\u0007 needs you',
  body: 'asks: <a href="https://evil.example/">Which</a> & <i>db</i>\u202e?\nsecond line',
};

function fakeElectron() {
  const made: (EventEmitter & { options: { title?: string; body?: string } })[] = [];
  const factory = ((options: { title?: string; body?: string }) => {
    const item = Object.assign(new EventEmitter(), { options, show: () => item.emit('show') });
    made.push(item);
    return item;
  }) as unknown as NotificationFactory;
  return { made, factory };
}

describe('issue 25 item 13: notification text is never markup', () => {
  it('issue 25 item 13: notify-send gets the body with <, > and & escaped and control and bidi characters shown; the title as plain text', () => {
    const argv = notifySendArgv(hostile, false);
    expect(argv.slice(argv.indexOf('--') + 1)).toEqual([
      'Claude · <b>app</b> & co␛]0;x␇ needs you',
      'asks: &lt;a href="https://evil.example/"&gt;Which&lt;/a&gt; &amp; &lt;i&gt;db&lt;/i&gt;&lt;U+202E&gt;?\nsecond line',
    ]);
    // An empty body shows the title there: escaped as a body.
    expect(notifySendArgv({ ...hostile, body: '' }, false).at(-1)).toBe('Claude · &lt;b&gt;app&lt;/b&gt; &amp; co␛]0;x␇ needs you');
  });

  it("issue 25 item 13: Electron's body is escaped on Linux (libnotify reads it as markup), left as written on macOS and Windows", async () => {
    const linux = fakeElectron();
    await new ElectronNotifier(linux.factory, () => true, 'linux').send(hostile, () => undefined);
    expect(linux.made[0]?.options.body).toBe(
      'asks: &lt;a href="https://evil.example/"&gt;Which&lt;/a&gt; &amp; &lt;i&gt;db&lt;/i&gt;&lt;U+202E&gt;?\nsecond line',
    );
    expect(linux.made[0]?.options.title).toBe('Claude · <b>app</b> & co␛]0;x␇ needs you');
    for (const platform of ['darwin', 'win32'] as const) {
      const other = fakeElectron();
      await new ElectronNotifier(other.factory, () => true, platform).send(hostile, () => undefined);
      expect(other.made[0]?.options.body).toBe('asks: <a href="https://evil.example/">Which</a> & <i>db</i><U+202E>?\nsecond line');
    }
  });
});

// The same through a real daemon: dunst, which reads bodies as markup (Xvfb + D-Bus, as in notify-delivery.test.ts).
const missing = missingTools();
if (missing.length > 0) console.log(`notification markup test skipped: missing ${missing.join(', ')} (.ci/run installs them)`);
// Made only when the test runs: a file whose every test is skipped runs no afterAll.
const base = missing.length === 0 ? mkdtempSync(join(tmpdir(), 'lookout-markup-dunst-')) : '';
const { display, ready } = virtualDisplay(70);
afterAll(() => {
  if (base !== '') rmSync(base, { recursive: true, force: true });
});

describe.skipIf(missing.length > 0)('issue 25 item 13 with a real daemon (Xvfb + D-Bus + dunst)', () => {
  it('issue 25 item 13: a question holding a link, & and a bidi override reaches dunst as text, never as markup', async () => {
    await ready();
    cpSync(join(FIXTURES, 'claude', 'question-pending'), join(base, 'claude'), { recursive: true });
    const transcript = join(base, 'claude', 'projects', '-home-me-app', 'c1a00000-0000-4000-8000-000000000029.jsonl');
    writeFileSync(
      transcript,
      readFileSync(transcript, 'utf8').replace('"Which database?"', '"Which <a href=\'https://evil.example/\'>database</a> & <b>more</b>\\u202e?"'),
    );
    const script = [
      ...startDunst(null),
      `"${process.execPath}" "${CLI}" watch --notify --json --now 2026-11-29T12:02:00.000Z >/dev/null 2>"${join(base, 'watch.err')}" & WATCH=$!`,
      poll('[ "$(dunstctl count displayed)" -ge 1 ]'),
      'dunstctl close-all',
      poll('[ "$(dunstctl count history)" -ge 1 ]'),
      'dunstctl history',
      'kill -INT $WATCH; wait $WATCH; kill $DUNST',
    ].join('\n');
    const env = {
      ...process.env,
      DISPLAY: display,
      CLAUDE_CONFIG_DIR: join(base, 'claude'),
      CODEX_HOME: join(base, 'codex'),
      LOOKOUT_HOME: join(base, 'home'),
      HOME: base,
    };
    const result = spawnSync('dbus-run-session', ['--', 'sh', '-c', script], { env, encoding: 'utf8', timeout: 80_000 });
    const log = `${result.stderr}\n${existsSync(join(base, 'watch.err')) ? readFileSync(join(base, 'watch.err'), 'utf8') : ''}`;
    expect(result.stdout.indexOf('{'), log).toBeGreaterThanOrEqual(0);
    const history = JSON.parse(result.stdout.slice(result.stdout.indexOf('{'))) as { data: { message: { data: string } }[][] };
    const message = history.data.flat()[0]?.message.data ?? '';
    // dunst's `message` is the Pango markup it renders: the question is there as escaped text, no link, no bold.
    expect(message, log).toContain("asks: Which &lt;a href='https://evil.example/'&gt;database&lt;/a&gt; &amp; &lt;b&gt;more&lt;/b&gt;&lt;U+202E&gt;?");
    expect(message).not.toContain('<b>more');
  }, 100_000);
});
