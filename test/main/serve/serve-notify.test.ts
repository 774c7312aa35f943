// Issue 25 ("also seen"): `serve --notify` was listed in the help and did nothing. It now sends
// desktop notifications as `watch --notify` does (a fake notify-send records them).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fakeNotifySend } from '../fake-notify-send';
import { until } from '../../wait';
import { fixtureHomes } from '../fixture-home';
import { serve } from '../serve-process';

const { base, home } = fixtureHomes('lookout-serve-notify-');

describe('serve --notify', () => {
  it('issue 25: serve --notify notifies as watch --notify does (it was listed in the help and did nothing)', async () => {
    const fake = fakeNotifySend(join(base, 'notify'));
    const served = await serve({ ...home(['question-pending']), PATH: `${fake.bin}:${process.env.PATH ?? ''}` }, [
      '--notify',
      '--now',
      '2026-11-29T12:02:00.000Z',
    ]);
    try {
      await until('the notification', () => fake.calls().length > 0 || served.child.exitCode !== null);
      const [call] = fake.calls();
      expect(call, served.stderr()).toBeDefined();
      expect(call?.slice(call.indexOf('--') + 1)).toEqual(['Claude · app (main) needs you', 'asks: Which database?']);
    } finally {
      await served.stop();
    }
  });
});
