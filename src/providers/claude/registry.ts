// Claude Code's live registry: sessions/<pid>.json, one per running session (§11).
import { readdirSync } from 'node:fs';
import { READ_CAPS, readRegularText } from '../system/safe-read';
import { join } from 'node:path';
import type { DirectEvidence, Liveness } from '../../engine';
import { num, parseRecord, str } from '../jsonl/parse-record';
import type { ProcessCheck } from '../system/process';
import { checkProcess } from '../system/process';
import type { Problems } from '../problems';
import { errorCode } from '../problems';

export const REGISTRY_SOURCE = 'claude.session-registry';

export interface RegistryEntry {
  file: string;
  pid: number;
  sessionId: string;
  cwd: string | null;
  status: string | null;
  waitingFor: string | null;
  updatedAt: number | null;
  procStart: string | null;
}

/** An epoch-ms time a date can hold, or null: a registry's numbers are not trusted blindly. */
function epoch(value: unknown): number | null {
  const ms = num(value);
  return ms !== null && ms > 0 && ms < 8.64e15 ? ms : null;
}

function parseRegistry(file: string, text: string): RegistryEntry | null {
  const record = parseRecord(text.trim());
  if (record === null) return null;
  const pid = num(record.pid);
  const sessionId = str(record.sessionId);
  if (pid === null || sessionId === null) return null;
  const procStart = record.procStart;
  return {
    file,
    pid,
    sessionId,
    cwd: str(record.cwd),
    status: str(record.status),
    waitingFor: str(record.waitingFor),
    // With no status time, the process start is the latest time known for certain: stable, so a
    // claim keeps its identity (R41) and the row's activity does not creep forward.
    updatedAt: epoch(record.statusUpdatedAt) ?? epoch(record.updatedAt) ?? epoch(record.startedAt),
    procStart: typeof procStart === 'number' ? String(procStart) : str(procStart),
  };
}

export interface RegistryRead {
  entries: RegistryEntry[];
  /** A file could not be read or parsed (torn mid-write): no entry may be judged gone this time. */
  incomplete: boolean;
}

export function readRegistry(root: string, problems: Problems): RegistryRead {
  const folder = join(root, 'sessions');
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') problems.add({ kind: 'unreadable', path: folder, detail: String(errorCode(error)) });
    return { entries: [], incomplete: errorCode(error) !== 'ENOENT' };
  }
  const entries: RegistryEntry[] = [];
  let incomplete = false;
  for (const name of names) {
    if (!/^\d+\.json$/.test(name)) continue;
    const file = join(folder, name);
    try {
      const entry = parseRegistry(file, readRegularText(file, READ_CAPS.smallJson));
      if (entry !== null) entries.push(entry);
      else incomplete = true;
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') {
        incomplete = true;
        problems.add({ kind: 'unreadable', path: file, detail: String(errorCode(error)) });
      }
    }
  }
  return { entries, incomplete };
}

export interface RegistryView {
  liveness: Liveness;
  direct: DirectEvidence[];
  cwd: string | null;
}

/** The registry's word on one session; a live entry wins over dead ones (two terminals, R7). */
export function registryView(
  entries: readonly RegistryEntry[],
  now: number,
  check: (pid: number, procStart: string | null) => ProcessCheck = checkProcess,
): RegistryView | null {
  if (entries.length === 0) return null;
  let dead: { entry: RegistryEntry; why: 'no-process' | 'pid-reused' } | null = null;
  let alive: RegistryEntry | null = null;
  for (const entry of entries) {
    const result = check(entry.pid, entry.procStart);
    if (result === 'alive') {
      if (alive === null || (entry.updatedAt ?? 0) > (alive.updatedAt ?? 0)) alive = entry;
    } else {
      dead = { entry, why: result };
    }
  }
  if (alive !== null) {
    const direct: DirectEvidence[] =
      alive.status === null
        ? []
        : [{ kind: 'registry-status', source: REGISTRY_SOURCE, at: alive.updatedAt ?? now, status: alive.status, waitingFor: alive.waitingFor }];
    return { liveness: { kind: 'alive', pid: alive.pid }, direct, cwd: alive.cwd };
  }
  if (dead === null) return null;
  return {
    liveness: { kind: 'dead', source: REGISTRY_SOURCE, pid: dead.entry.pid, at: dead.entry.updatedAt ?? now, why: dead.why },
    direct: [],
    cwd: dead.entry.cwd,
  };
}
