// Issue 49, R91: the tray tells the runtime when the person is away (idle for awayAfter, or the screen locked).
import { describe, expect, it } from 'vitest';
import { AwayWatch } from '../../src/tray/away-watch';

describe('R91 away from the desk', () => {
  it('R91 away while idle for awayAfter or the screen is locked; each change told once', () => {
    let idle = 10;
    const listeners = new Map<string, () => void>();
    const told: boolean[] = [];
    const watch = new AwayWatch(
      { getSystemIdleTime: () => idle, on: (event, listener) => listeners.set(event, listener) },
      () => 300_000,
      (away) => told.push(away),
    );
    listeners.get('lock-screen')?.();
    listeners.get('unlock-screen')?.();
    idle = 301;
    watch.check();
    watch.check();
    idle = 0;
    watch.check();
    watch.dispose();
    expect(told).toEqual([false, true, false, true, false]);
  });
});
