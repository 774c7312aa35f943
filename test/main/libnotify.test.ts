// Issue 15: the argv `watch --notify` gives notify-send (text after "--", so a title is never an
// option), and how its printed answer maps to an action. notify-actions-delivery.test.ts runs it.
import { describe, expect, it } from 'vitest';
import { chosenAction, notifySendArgv } from '../../src/main/notify/libnotify';

const plan = { claimIds: ['x'], keys: ['claude:x'], title: '--help me', body: '-rf: asks' };

describe('notify-send (issue 15)', () => {
  it('with actions: waits, the click is Open, then the three buttons; the text after "--"', () => {
    expect(notifySendArgv(plan, true)).toEqual(['--app-name=Lookout', '--wait', '--action=default=Open', '--action=open=Open', '--action=mute-1h=Mute 1 hour', '--action=reviewed=Mark reviewed', '--', '--help me', '-rf: asks']);
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
    expect(notifySendArgv(approval, true).slice(0, 5)).toEqual(['--app-name=Lookout', '--wait', '--action=default=Open', '--action=allow=Allow', '--action=deny=Deny']);
    expect(chosenAction('allow\n', approval)).toBe('allow');
    expect(chosenAction('deny', approval)).toBe('deny');
  });
});
