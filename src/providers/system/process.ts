// Processes as the system reports them: liveness, start times, parents. Shared by the providers
// (is a registry's pid still the process that wrote it? R7), the store's lock and `open`.
import { readFileSync } from 'node:fs';
import { errorCode } from '../problems';

export type ProcessCheck = 'alive' | 'no-process' | 'pid-reused';

export function pidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    if (errorCode(error) !== 'EPERM') return false;
  }
  // A killed process nobody has reaped yet (its parent gone too, under an init that does not reap) is
  // a zombie: signals reach it, but it runs nothing.
  return procStat(pid)?.[0] !== 'Z';
}

/** The fields of /proc/<pid>/stat after the command name (field 3 onward), or null off Linux. */
function procStat(pid: number): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces and parentheses: the fields start after the last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** A process's parent pid: /proc where there is one, else `ps`; null when it cannot be told. */
export function parentPid(pid: number): number | null {
  const fields = procStat(pid);
  if (fields !== null) return Number(fields[1]);
  try {
    return Number(
      process
        .getBuiltinModule('node:child_process')
        .execFileSync('ps', ['-o', 'ppid=', '-p', String(pid)], { encoding: 'utf8', timeout: 1000, stdio: ['ignore', 'pipe', 'ignore'] })
        .trim(),
    );
  } catch {
    return null;
  }
}

/** The process's start time as the registry would write it, or null when it cannot be told. */
function currentStart(pid: number, sample: string): string | null {
  // Linux writes clock ticks since boot: field 22 of /proc/<pid>/stat.
  if (/^\d+$/.test(sample.trim())) return procStat(pid)?.[19] ?? null;
  try {
    // The C locale prints lstart as Claude Code records it ("Sat Aug  8 07:11:34 2026").
    // Loaded on first use: on Linux /proc answers and a one-shot command never pays for child_process.
    return process.getBuiltinModule('node:child_process').execFileSync('ps', ['-o', 'lstart=', '-p', String(pid)], {
      encoding: 'utf8',
      timeout: 1000,
      stdio: ['ignore', 'pipe', 'ignore'],
      env: { ...process.env, LC_ALL: 'C', LANG: 'C' },
    });
  } catch {
    return null;
  }
}

const normalize = (text: string): string => text.trim().replace(/\s+/g, ' ');

export function checkProcess(pid: number, procStart: string | null): ProcessCheck {
  if (!pidAlive(pid)) return 'no-process';
  if (procStart === null || procStart.trim() === '') return 'alive';
  const now = currentStart(pid, procStart);
  if (now === null) return 'alive';
  return normalize(now) === normalize(procStart) ? 'alive' : 'pid-reused';
}

/** The machine's boot time (epoch ms), read once: it does not change while Lookout runs. */
let boot: number | null | undefined;
function bootTime(): number | null {
  if (boot !== undefined) return boot;
  try {
    const seconds = /^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'))?.[1];
    boot = seconds === undefined ? null : Number(seconds) * 1000;
  } catch {
    boot = null;
  }
  return boot;
}

/**
 * When the process started (epoch ms), or null when it cannot be told: Linux from /proc (boot
 * time plus the start in clock ticks, at the usual 100 per second), elsewhere from `ps`.
 */
export function processStartedAt(pid: number): number | null {
  const ticks = Number(procStat(pid)?.[19]);
  if (Number.isFinite(ticks) && ticks > 0) {
    const boot = bootTime();
    return boot === null ? null : boot + (ticks / 100) * 1000;
  }
  try {
    const text = process.getBuiltinModule('node:child_process').execFileSync('ps', ['-o', 'lstart=', '-p', String(pid)], {
      encoding: 'utf8',
      timeout: 1000,
      stdio: ['ignore', 'pipe', 'ignore'],
      env: { ...process.env, LC_ALL: 'C', LANG: 'C' },
    });
    const ms = Date.parse(text.trim());
    return Number.isFinite(ms) ? ms : null;
  } catch {
    return null;
  }
}
