// Issue 47 item 4: a LOOKOUT_HOME (or its bin/, run/, spool/) another user owns, or others can
// write, is refused with one line; `hooks install` refuses too; the hook fails open. One of yours
// that others can only read (an older install's 0755) is made private and used.
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { privateDirProblem } from '../../../src/main/store/private-home';
import { runCli } from '../cli-process';

const dir = mkdtempSync(join(tmpdir(), 'lookout-home-owner-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const folderStat = (uid: number, mode: number, kind: 'dir' | 'link' | 'file' = 'dir') => ({
  uid,
  mode,
  isDirectory: () => kind === 'dir',
  isSymbolicLink: () => kind === 'link',
});

function freshHome(name: string, mode: number): string {
  const home = join(dir, name);
  mkdirSync(home, { mode: 0o700 });
  chmodSync(home, mode);
  return home;
}

const env = (home: string) => ({ HOME: dir, LOOKOUT_HOME: home, CLAUDE_CONFIG_DIR: join(dir, 'claude'), CODEX_HOME: join(dir, 'codex') });

describe('issue 47 item 4: a Lookout home someone else owns', () => {
  it('issue 47 item 4: a folder of another uid is refused, naming both uids (checkPrivateDir, injected stat)', () => {
    expect(privateDirProblem('/tmp/x', folderStat(1001, 0o40700), 1000)).toBe('refusing LOOKOUT_HOME folder /tmp/x: owned by uid 1001, not you (1000)');
    expect(privateDirProblem('/tmp/x', folderStat(1000, 0o40777), 1000)).toBe(
      'refusing LOOKOUT_HOME folder /tmp/x: writable by others (mode 0777), so it may hold their programs; check it, then chmod 700 it',
    );
    expect(privateDirProblem('/tmp/x', folderStat(1000, 0o40775), 1000)).toMatch(/writable by others \(mode 0775\)/);
    expect(privateDirProblem('/tmp/x', folderStat(1000, 0o40755), 1000)).toBeNull();
    expect(privateDirProblem('/tmp/x', folderStat(1000, 0o120777, 'link'), 1000)).toMatch(/symbolic link/);
    expect(privateDirProblem('/tmp/x', folderStat(1000, 0o100600, 'file'), 1000)).toMatch(/not a folder/);
    expect(privateDirProblem('/tmp/x', folderStat(1000, 0o40700), 1000)).toBeNull();
  });

  it('issue 47 item 4: status refuses a home others can write (0777, 0775) with one line and exit 1; a 0700 one works; help and the version need no home', () => {
    for (const mode of [0o777, 0o775]) {
      const loose = freshHome(`loose-${mode.toString(8)}`, mode);
      const result = runCli(['status'], env(loose));
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(
        `lookout: refusing LOOKOUT_HOME folder ${loose}: writable by others (mode 0${mode.toString(8)}), so it may hold their programs; check it, then chmod 700 it\n`,
      );
      expect(runCli(['--version'], env(loose)).code).toBe(0);
    }
    expect(runCli(['status'], env(freshHome('tight', 0o700))).code).toBe(0);
  });

  it("issue 47 item 4: a home of yours others can only read (an older install's 0755 bin/) is made private and used", () => {
    const home = freshHome('older-install', 0o755);
    mkdirSync(join(home, 'bin'), { mode: 0o755 });
    chmodSync(join(home, 'bin'), 0o755);
    expect(runCli(['status'], env(home)).code).toBe(0);
    expect(statSync(home).mode & 0o777).toBe(0o700);
    expect(statSync(join(home, 'bin')).mode & 0o777).toBe(0o700);
  });

  it('issue 47 item 4: a home whose bin/ is a symbolic link is refused, and hooks install refuses too', () => {
    const home = freshHome('linked-bin', 0o700);
    const elsewhere = freshHome('elsewhere', 0o700);
    symlinkSync(elsewhere, join(home, 'bin'));
    const result = runCli(['hooks', 'install', '--provider', 'claude'], env(home));
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`lookout: refusing LOOKOUT_HOME folder ${join(home, 'bin')}: a symbolic link, not a folder of your own\n`);
    expect(existsSync(join(elsewhere, 'lookout-hook'))).toBe(false);
    expect(existsSync(join(dir, 'claude', 'settings.json'))).toBe(false);
  });

  it('issue 47 item 4: a home another user owns is refused by hooks install; the hook itself exits 0 and writes nothing', (context) => {
    // Only root can give a folder to another user.
    if (process.getuid?.() !== 0) context.skip();
    const home = freshHome('theirs', 0o700);
    chownSync(home, 1001, 1001);
    const result = runCli(['hooks', 'install', '--provider', 'claude'], env(home));
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`lookout: refusing LOOKOUT_HOME folder ${home}: owned by uid 1001, not you (0)\n`);
    const hook = runCli(['hook', 'claude-stop'], env(home), '{"session_id":"s","hook_event_name":"Stop"}');
    expect(hook.code).toBe(0);
    expect(hook.stderr).toBe('');
    expect(existsSync(join(home, 'spool'))).toBe(false);
  });

  it('issue 47 item 4: hooks install makes bin/ private, so the next command accepts the home it made', () => {
    const home = join(dir, 'made-by-install');
    const installed = runCli(['hooks', 'install', '--provider', 'claude'], env(home));
    expect(installed.code).toBe(0);
    expect(runCli(['hooks', 'status', '--provider', 'claude'], env(home)).code).toBe(0);
  });
});
