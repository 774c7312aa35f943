// Recordings for the fast suite: at a decisive moment of a scenario, the files the agent wrote
// (and the hook spool) are copied into test/fixtures/live/<agent>-<version>/<case>/, with what
// Lookout must say of them. Made only when LOOKOUT_LAB_RECORD names the folder to write.
import { cpSync, existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { LabRow } from './lookout';
import type { Scenario } from './scenario';
import { LAB_MODULES } from './scenario';
import { LockTable } from '../../../src/providers/codex/writer-lock';
import { DatabaseSync } from '@photostructure/sqlite';

/** What a recorded case promises: the row Lookout must give at `now`. */
export interface RecordedCase {
  agent: string;
  version: string;
  scenario: string;
  shows: string;
  now: string;
  sessionKey: string;
  expect: { state: string; reason: string; source: string; claim: string | null };
}

/** A pid no process has: a registry entry whose process was gone when recorded. */
export const GONE_PID = 2_147_483_646;

/** Every agent's folders under a recorded home (the lab's own layout), and Lookout's home beside them. */
export function recordedHomeEnv(home: string): Record<string, string> {
  return {
    HOME: home,
    LOOKOUT_HOME: join(home, '.lookout'),
    CLAUDE_CONFIG_DIR: join(home, '.claude'),
    CODEX_HOME: join(home, '.codex'),
    COPILOT_HOME: join(home, '.copilot'),
    OPENCODE_DATA_DIR: join(home, '.local', 'share', 'opencode'),
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
  };
}

export function record(lab: Scenario, name: string, shows: string, row: LabRow, now: string): void {
  const root = process.env.LOOKOUT_LAB_RECORD;
  if (root === undefined || root === '') return;
  const version = lab.agent.version(LAB_MODULES) ?? 'unknown';
  const target = join(root, `${lab.agent.id}-${version}`, name);
  rmSync(target, { recursive: true, force: true });
  const home = join(target, 'home');
  const locks = LockTable.read();
  for (const part of [...lab.agent.recorded, '.lookout/spool']) {
    const from = join(lab.home.home, part);
    if (!existsSync(from)) continue;
    mkdirSync(dirname(join(home, part)), { recursive: true });
    // A lock someone holds cannot be recorded as held: it is left out (its replay then judges nothing).
    cpSync(from, join(home, part), { recursive: true, filter: (path) => !path.endsWith('.lock') || !heldNow(path, locks) });
  }
  rewriteRegistry(join(home, '.claude', 'sessions'));
  rewriteInUse(join(home, '.copilot', 'session-state'));
  rewriteQwenRuntime(join(home, '.qwen', 'projects'));
  rewriteSessionTable(join(home, '.cline', 'data', 'db', 'sessions.db'));
  const recorded: RecordedCase = {
    agent: lab.agent.id,
    version,
    scenario: lab.options.name,
    shows,
    now,
    sessionKey: row.key,
    expect: { state: row.observed.state, reason: row.observed.reason, source: row.observed.source, claim: row.claim?.kind ?? null },
  };
  writeFileSync(join(target, 'case.json'), `${JSON.stringify(recorded, null, 2)}\n`);
}

function heldNow(path: string, locks: LockTable | null): boolean {
  if (locks === null) return true;
  const stat = lstatSync(path);
  return stat.isFile() && locks.holds(stat.dev, stat.ino);
}

/**
 * A registry entry names a pid: one alive when recorded becomes pid 1 (alive wherever the replay
 * runs) without its start time; one already gone becomes a pid no process has. Key files are dropped.
 */
function rewriteRegistry(folder: string): void {
  if (!existsSync(folder)) return;
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    if (!name.endsWith('.json')) {
      rmSync(path, { force: true });
      continue;
    }
    const entry = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
    const alive = typeof entry.pid === 'number' && pidRuns(entry.pid);
    const { procStart: _dropped, ...rest } = entry;
    rmSync(path);
    const pid = alive ? 1 : GONE_PID;
    writeFileSync(join(folder, `${pid}.json`), JSON.stringify({ ...rest, pid }));
  }
}

/** Copilot's `inuse.<pid>.lock` names its process: renamed as the registry's pids are. */
function rewriteInUse(folder: string): void {
  if (!existsSync(folder)) return;
  for (const name of readdirSync(folder, { recursive: true, encoding: 'utf8' })) {
    const match = /(^|\/)inuse\.(\d+)\.(lock|hold)$/.exec(name);
    if (match === null) continue;
    const pid = pidRuns(Number(match[2])) ? 1 : GONE_PID;
    renameSync(join(folder, name), join(folder, name.replace(/inuse\.\d+\./, `inuse.${pid}.`)));
  }
}

/** Cline CLI's session table names each session's process: its pids renamed as the registry's are. */
function rewriteSessionTable(path: string): void {
  if (!existsSync(path)) return;
  const db = new DatabaseSync(path);
  try {
    const update = db.prepare('UPDATE sessions SET pid = ? WHERE session_id = ?');
    for (const row of db.prepare('SELECT session_id, pid FROM sessions').all()) update.run(pidRuns(Number(row.pid)) ? 1 : GONE_PID, String(row.session_id));
  } finally {
    db.close();
  }
}

/**
 * Qwen Code's `<session>.runtime.json` names its process and machine: the pid is renamed as the
 * registry's are, and the machine's name dropped (the replay runs on another).
 */
function rewriteQwenRuntime(folder: string): void {
  if (!existsSync(folder)) return;
  for (const name of readdirSync(folder, { recursive: true, encoding: 'utf8' })) {
    if (!name.endsWith('.runtime.json')) continue;
    const path = join(folder, name);
    const { hostname: _machine, ...status } = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
    const pid = typeof status.pid === 'number' && pidRuns(status.pid) ? 1 : GONE_PID;
    writeFileSync(path, JSON.stringify({ ...status, pid }));
  }
}

function pidRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z';
  } catch {
    return false;
  }
}
