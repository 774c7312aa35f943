// The working tree of a session's folder, for ready-for-review (§5): git, spawned with argv and
// a timeout in that folder (never through a shell), fingerprinting staged, unstaged and untracked
// changes. The folder comes from a transcript, so it is checked before use.
import { statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import type { WorkingTree } from '../../engine';

// Loaded on first use: most runs never spawn or hash, and these modules cost a one-shot command's start-up.
const childProcess = () => process.getBuiltinModule('node:child_process');
const crypto = () => process.getBuiltinModule('node:crypto');

const GIT_TIMEOUT_MS = 5000;
const STAT_LIMIT = 2000;

function git(cwd: string, args: string[]): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    // A repository's config could name an fsmonitor program: Lookout runs none of the repo's code.
    childProcess().execFile(
      'git',
      ['-c', 'core.fsmonitor=false', '-c', 'core.hooksPath=/dev/null', ...args],
      { cwd, timeout: GIT_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024, encoding: 'utf8', env: { ...process.env, GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C' } },
      (error, stdout) => {
        const code = error === null ? 0 : typeof (error as { code?: unknown }).code === 'number' ? (error as { code: number }).code : -1;
        resolve({ code, stdout });
      },
    );
  });
}

/** A folder Lookout may run git in: absolute, and a directory that exists. */
function usableFolder(cwd: string | null): cwd is string {
  if (cwd === null || !isAbsolute(cwd)) return false;
  try {
    return statSync(cwd).isDirectory();
  } catch {
    return false;
  }
}

export async function readWorkingTree(cwd: string | null, now: number): Promise<WorkingTree> {
  // No folder here to look in: there is no working tree to review (the finish is still told).
  if (!usableFolder(cwd)) return { kind: 'not-a-repo', at: now };
  // GIT_OPTIONAL_LOCKS=0: status must not take the index lock from a running agent.
  const status = await git(cwd, ['status', '--porcelain=v1', '-z', '--untracked-files=all']);
  if (status.code !== 0) return status.code === 128 ? { kind: 'not-a-repo', at: now } : { kind: 'unknown', at: now };
  const top = await git(cwd, ['rev-parse', '--show-toplevel']);
  const root = top.code === 0 ? top.stdout.trim() : cwd;
  const entries = status.stdout.split('\0').filter((entry) => entry.length > 3);
  const hash = crypto().createHash('sha256').update(status.stdout);
  // Porcelain names a changed file but not its content: its size and time catch further edits.
  for (const entry of entries.slice(0, STAT_LIMIT)) {
    try {
      const info = statSync(join(root, entry.slice(3)));
      hash.update(`\0${info.size}:${info.mtimeMs}`);
    } catch {
      hash.update('\0gone');
    }
  }
  return { kind: 'read', at: now, fingerprint: hash.digest('hex').slice(0, 32), changedFiles: countFiles(entries) };
}

/** Renames take two NUL-separated fields in -z output; count each change once. */
function countFiles(entries: readonly string[]): number {
  return entries.filter((entry) => /^[ MADRCU?!]{2} /.test(entry)).length;
}
