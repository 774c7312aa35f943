// Issue 15: the argv `watch --notify` gives notify-send (text after "--", so a title is never an
// option), and how its printed answer maps to an action. notify-actions-delivery.test.ts runs it.
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { LibnotifyNotifier, chosenAction, failureLine, notifySendArgv } from '../../../src/main/notify/libnotify';

const hasNotifySend = (() => {
  try {
    execFileSync('notify-send', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

const plan = { claimIds: ['x'], keys: ['claude:x'], title: '--help me', body: '-rf: asks' };

describe('notify-send (issue 15)', () => {
  it('with actions: waits, the click is Open, then the three buttons; the text after "--"', () => {
    expect(notifySendArgv(plan, true)).toEqual([
      '--app-name=Lookout',
      '--wait',
      '--action=default=Open',
      '--action=open=Open',
      '--action=mute-1h=Mute 1 hour',
      '--action=reviewed=Mark reviewed',
      '--',
      '--help me',
      '-rf: asks',
    ]);
  });

  it('without actions (too many waiting): shown and done', () => {
    expect(notifySendArgv({ ...plan, body: '' }, false)).toEqual(['--app-name=Lookout', '--', '--help me', '--help me']);
  });

  it('reads the action printed; anything else is none', () => {
    expect(chosenAction('default\n', plan)).toBe('open');
    expect(chosenAction('mute-1h\n', plan)).toBe('mute-1h');
    expect(chosenAction('reviewed', plan)).toBe('reviewed');
    expect(chosenAction('', plan)).toBeNull();
    expect(chosenAction('rm -rf\n', plan)).toBeNull();
    // Allow only where the notification carried the approval (issue 23).
    expect(chosenAction('allow\n', plan)).toBeNull();
  });

  it('an approval shown whole: Allow and Deny first (issue 23)', () => {
    const approval = { ...plan, body: 'Bash: rm -rf build', answer: { key: 'claude:x', request: `req_${'1'.repeat(24)}`, digest: 'd'.repeat(64) } };
    expect(notifySendArgv(approval, true).slice(0, 5)).toEqual([
      '--app-name=Lookout',
      '--wait',
      '--action=default=Open',
      '--action=allow=Allow',
      '--action=deny=Deny',
    ]);
    expect(chosenAction('allow\n', approval)).toBe('allow');
    expect(chosenAction('deny', approval)).toBe('deny');
  });

  it('its own words for nothing shown are a failure; its notes are not', () => {
    expect(failureLine('(notify-send:9709): libnotify-WARNING **: 23:51:37.376: Failed to connect to proxy\n')).toMatch(
      /^notify-send: libnotify-WARNING \*\*: [\d:.]+: Failed to connect to proxy$/,
    );
    expect(
      failureLine('Actions are not supported by this notifications server. Displaying non-interactively.\nCannot autolaunch D-Bus without X11 $DISPLAY\n'),
    ).toBe('notify-send: Cannot autolaunch D-Bus without X11 $DISPLAY');
    expect(failureLine('Actions are not supported by this notifications server. Displaying non-interactively.\n')).toBeNull();
  });

  it.skipIf(!hasNotifySend)('with no session bus, --wait hangs saying why: the send fails (not "shown") and the process is ended', async () => {
    const saved = { bus: process.env.DBUS_SESSION_BUS_ADDRESS, display: process.env.DISPLAY };
    process.env.DBUS_SESSION_BUS_ADDRESS = 'unix:path=/nonexistent/lookout-test-bus';
    delete process.env.DISPLAY;
    const notifier = new LibnotifyNotifier();
    try {
      await expect(notifier.send(plan, () => undefined)).rejects.toThrow(/^notify-send: .*(connect|autolaunch)/i);
    } finally {
      notifier.dispose();
      if (saved.bus === undefined) delete process.env.DBUS_SESSION_BUS_ADDRESS;
      else process.env.DBUS_SESSION_BUS_ADDRESS = saved.bus;
      if (saved.display !== undefined) process.env.DISPLAY = saved.display;
    }
  });
});
