// Qwen Code's <session>.runtime.json: the process that holds a session (schema 1: pid, session_id,
// work_dir, hostname, started_at in epoch seconds, qwen_version). Qwen rewrites it when a process
// takes a session and removes it when the process moves to another; it is left behind when the
// process exits, even cleanly, so only its pid tells whether the session still runs (R7).
import { hostname } from 'node:os';
import type { Liveness } from '../../engine';
import { num, parseRecord, str } from '../jsonl/parse-record';
import { pidAlive, processStartedAt } from '../system/process';

export const RUNTIME_SOURCE = 'qwen.runtime';

export interface RuntimeStatus {
  pid: number;
  sessionId: string;
  workDir: string | null;
  host: string | null;
  /** When the process took the session (epoch ms). */
  startedAt: number;
}

/** The file's fields, or null when it is not Qwen's schema 1 (Qwen itself ignores such a file). */
export function parseRuntime(text: string): RuntimeStatus | null {
  const record = parseRecord(text.trim());
  if (record === null || record.schema_version !== 1) return null;
  const pid = num(record.pid);
  const sessionId = str(record.session_id);
  const started = num(record.started_at);
  if (pid === null || !Number.isInteger(pid) || sessionId === null || started === null) return null;
  return { pid, sessionId, workDir: str(record.work_dir), host: str(record.hostname), startedAt: started * 1000 };
}

export type RuntimeCheck = 'alive' | 'no-process' | 'pid-reused';

function checkRuntime(status: RuntimeStatus): RuntimeCheck {
  if (!pidAlive(status.pid)) return 'no-process';
  const started = processStartedAt(status.pid);
  // A second's slack: the process writes the file itself, after it started.
  return started !== null && started > status.startedAt + 1000 ? 'pid-reused' : 'alive';
}

/**
 * The session's process as liveness: alive, gone (or its pid now another's, R7), or unreported
 * when there is no file or it was written on another machine (a shared home: its pids are not ours).
 */
export function runtimeLiveness(
  status: RuntimeStatus | null,
  lastAt: number | null,
  now: number,
  check: (status: RuntimeStatus) => RuntimeCheck = checkRuntime,
): Liveness {
  if (status === null || (status.host !== null && status.host !== hostname())) return { kind: 'unreported' };
  const result = check(status);
  if (result === 'alive') return { kind: 'alive', pid: status.pid };
  return { kind: 'dead', source: RUNTIME_SOURCE, pid: status.pid, at: lastAt ?? now, why: result };
}
