// Issue 11 item 16: a read-only LOOKOUT_HOME is said once, and watch and serve run without the
// spool instead of exiting; status works as before.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES } from '../../providers/fixture-roots';
import { runCli } from '../cli-process';
import { serve } from '../serve-process';
import { WatchProcess } from '../watch-process';

const dir = mkdtempSync(join(tmpdir(), 'lookout-ro-home-'));
const mount = join(dir, 'ro');
let mounted = false;

beforeAll(() => {
  mkdirSync(mount, { recursive: true });
  cpSync(join(FIXTURES, 'claude', 'question-pending'), join(dir, 'claude'), { recursive: true });
  try {
    // A read-only file system: even root cannot write it (a chmod would not stop root).
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'ro,size=16k', 'tmpfs', mount], { stdio: 'ignore' });
    mounted = true;
  } catch {
    console.log('read-only home tests skipped: this machine does not allow mounting a read-only tmpfs');
  }
});
afterAll(() => {
  if (mounted) execFileSync('umount', [mount]);
  rmSync(dir, { recursive: true, force: true });
});

const env = () => ({ HOME: dir, CLAUDE_CONFIG_DIR: join(dir, 'claude'), CODEX_HOME: join(dir, 'codex'), LOOKOUT_HOME: join(mount, 'lookout') });

describe('a read-only LOOKOUT_HOME', () => {
  it('status works as before', (context) => {
    if (!mounted) context.skip();
    const result = runCli(['status', '--json', '--all'], env());
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).sessions).toHaveLength(1);
  });

  it('watch says so once and keeps running without the spool', async (context) => {
    if (!mounted) context.skip();
    const watch = new WatchProcess(['--all'], env());
    try {
      const first = await watch.until((snapshot) => snapshot.sessions.length === 1, 30_000);
      expect(first.sessions[0]?.provider).toBe('claude');
      expect(watch.stderr).toContain('is read-only or cannot be created');
      expect(watch.stderr).not.toContain('ENOENT mkdir');
    } finally {
      expect((await watch.stop()).code).toBe(0);
    }
  });

  it('serve still prints its URL', async (context) => {
    if (!mounted) context.skip();
    const served = await serve(env());
    expect(served.url.hostname).toBe('127.0.0.1');
    expect(served.stderr()).toContain('is read-only or cannot be created');
    expect(await served.stop()).toBe(0);
  });
});
