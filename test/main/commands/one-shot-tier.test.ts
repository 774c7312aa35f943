import { spawnSync } from 'node:child_process';
import { describe, expect, it, vi } from 'vitest';

const setFlags = vi.hoisted(() => vi.fn());
vi.mock('node:v8', async (importOriginal) => ({ ...(await importOriginal<typeof import('node:v8')>()), setFlagsFromString: setFlags }));

describe('one-shot commands skip the optimising compiler (docs/performance.md)', () => {
  it('turns it off for one-shot commands and leaves it on for watch and serve', async () => {
    const { tierFor } = await import('../../../src/main/commands/dispatch');
    for (const name of ['status', 'explain', 'next', 'review', 'hook']) tierFor(name);
    expect(setFlags).toHaveBeenCalledTimes(5);
    expect(setFlags).toHaveBeenCalledWith('--no-turbofan');
    setFlags.mockClear();
    tierFor('watch');
    tierFor('serve');
    expect(setFlags).not.toHaveBeenCalled();
  });

  it('uses a flag this Node knows (an unknown one is reported on stderr)', () => {
    const run = (flag: string) => spawnSync(process.execPath, ['-e', `require('node:v8').setFlagsFromString('${flag}')`], { encoding: 'utf8' });
    expect(run('--no-such-flag-for-lookout').stderr).toMatch(/unrecognized flag/);
    expect(run('--no-turbofan').stderr).toBe('');
  });
});
