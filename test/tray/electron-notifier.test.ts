// Issue 15: Electron's notifications carry Mute 1 hour and Mark reviewed as buttons on macOS and
// Windows (Electron has none on Linux); the click is Open everywhere. Fake notifications.
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { NotificationAction } from '../../src/engine';
import type { NotificationFactory } from '../../src/tray/electron-notifier';
import { ElectronNotifier } from '../../src/tray/electron-notifier';

const plan = { claimIds: ['claude:k|needs-you|1'], keys: ['claude:k'], title: 'Claude · app needs you', body: 'asks: Which database?' };

function fake() {
  const made: (EventEmitter & { options: unknown })[] = [];
  const factory = ((options: unknown) => {
    const item = Object.assign(new EventEmitter(), { options, show: () => item.emit('show') });
    made.push(item);
    return item;
  }) as unknown as NotificationFactory;
  return { made, factory };
}

describe('Electron notifications (issue 15)', () => {
  it.each(['darwin', 'win32'] as const)('on %s: two buttons; each reports its action, the click reports Open', async (platform) => {
    const { made, factory } = fake();
    const picked: NotificationAction[] = [];
    await new ElectronNotifier(factory, () => true, platform).send(plan, (action) => picked.push(action));
    expect(made[0]?.options).toEqual({
      title: plan.title,
      body: plan.body,
      silent: false,
      actions: [
        { type: 'button', text: 'Mute 1 hour' },
        { type: 'button', text: 'Mark reviewed' },
      ],
    });
    made[0]?.emit('action', {}, 1);
    made[0]?.emit('action', {}, 0);
    made[0]?.emit('action', {}, 7);
    made[0]?.emit('click');
    expect(picked).toEqual(['reviewed', 'mute-1h', 'open']);
  });

  it('on Linux: no buttons (Electron has none there; watch --notify uses notify-send), the click still opens', async () => {
    const { made, factory } = fake();
    const picked: NotificationAction[] = [];
    await new ElectronNotifier(factory, () => true, 'linux').send(plan, (action) => picked.push(action));
    expect(made[0]?.options).toEqual({ title: plan.title, body: plan.body, silent: false });
    made[0]?.emit('click');
    expect(picked).toEqual(['open']);
  });
});
