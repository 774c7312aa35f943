// Is a registry's pid still the process that wrote it? Liveness is evidence, not proof (R7).
import { readFileSync } from 'node:fs';
import { errorCode } from './problems';

export type ProcessCheck = 'alive' | 'no-process' | 'pid-reused';

export function pidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return errorCode(error) === 'EPERM';
  }
}

/** The process's start time as the registry would write it, or null when it cannot be told. */
function currentStart(pid: number, sample: string): string | null {
  if (/^\d+$/.test(sample.trim())) {
    // Linux writes clock ticks since boot: field 22 of /proc/<pid>/stat.
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return fields[19] ?? null;
    } catch {
      return null;
    }
  }
  try {
    // The C locale prints lstart as Claude Code records it ("Sat Aug  8 07:11:34 2026").
    // Loaded on first use: on Linux /proc answers and a one-shot command never pays for child_process.
    return process.getBuiltinModule('node:child_process').execFileSync('ps', ['-o', 'lstart=', '-p', String(pid)], { encoding: 'utf8', timeout: 1000, stdio: ['ignore', 'pipe', 'ignore'], env: { ...process.env, LC_ALL: 'C', LANG: 'C' } });
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
