// Files the real agents wrote in the live lab (test/fixtures/live/<agent>-<version>/<case>/, made
// by `LOOKOUT_LAB_RECORD=… npm run test:live`), read by the built command line at the moment they
// were recorded: the row must be what the lab saw then. The fast suite's copy of the lab's cases.
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../main/cli-process';
import type { RecordedCase } from '../live/lab/record';
import { recordedHomeEnv } from '../live/lab/record';
import { processStartedAt } from '../../src/providers/system/process';

const LIVE = resolve(__dirname, '../fixtures/live');

interface Recording {
  folder: string;
  label: string;
  meta: RecordedCase;
}

function recordings(): Recording[] {
  const found: Recording[] = [];
  for (const agent of readdirSync(LIVE)) {
    for (const name of readdirSync(join(LIVE, agent))) {
      const folder = join(LIVE, agent, name);
      if (!existsSync(join(folder, 'case.json'))) continue;
      found.push({ folder, label: `${agent}/${name}`, meta: JSON.parse(readFileSync(join(folder, 'case.json'), 'utf8')) as RecordedCase });
    }
  }
  return found;
}

const scratch = mkdtempSync(join(tmpdir(), 'lookout-live-recordings-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The recording's home, copied (Lookout keeps its own state beside the spool), with `leaveOut` removed. */
function homeOf(recording: Recording, leaveOut: readonly string[] = []): string {
  const home = mkdtempSync(join(scratch, 'home-'));
  // Times kept: a database written a moment ago is taken to have its writer.
  cpSync(join(recording.folder, 'home'), home, { recursive: true, preserveTimestamps: true });
  for (const part of leaveOut) rmSync(join(home, part), { recursive: true, force: true });
  return home;
}

interface LiveRow {
  key: string;
  observed: { state: string; reason: string; source: string; detail: string | null };
  claim: { kind: string } | null;
}

function rowsAt(home: string, now: string): LiveRow[] {
  const result = runCli(['status', '--json', '--all', '--now', now], recordedHomeEnv(home));
  expect(result.code, result.stderr).toBe(0);
  return (JSON.parse(result.stdout) as { sessions: LiveRow[] }).sessions;
}

/** Agents whose recorded process entries keep the process's start time beside its pid. */
const STARTS_KEPT = new Set(['qwen', 'cline']);
/** Longer than any lab scenario: its agent started within this span before the recording's instant. */
const SCENARIO_SPAN_MS = 3_600_000;

/**
 * A live process in a recording is pid 1 (record.ts), which stands in only if it started before the
 * agent did: Qwen and Cline keep their start, and a pid that started later is another process
 * (R7). On a machine booted after the recording, such a replay cannot be made; it is said, not run.
 */
function standInTooYoung(recording: Recording): string | null {
  if (!STARTS_KEPT.has(recording.meta.agent)) return null;
  const started = processStartedAt(1);
  const latest = Date.parse(recording.meta.now) - SCENARIO_SPAN_MS;
  if (started === null || started <= latest) return null;
  return `this machine's pid 1 started at ${new Date(started).toISOString()}, after the recorded agent did (before ${recording.meta.now}): it cannot stand in for the agent's process`;
}

describe('recordings of the real agents (issue 22)', () => {
  const all = recordings();

  it('there are recordings of Claude Code, Codex, Copilot CLI, opencode, Kilo CLI, Gemini CLI, Factory Droid, Cline CLI, Qwen Code and Pi, each naming its version', () => {
    const agents = new Set(all.map((recording) => recording.meta.agent));
    expect([...agents].sort()).toEqual(['claude', 'cline', 'codex', 'copilot', 'droid', 'gemini', 'kilo', 'opencode', 'pi', 'qwen']);
    for (const recording of all) expect(recording.meta.version).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it.for(all.map((recording) => [`${recording.label}: ${recording.meta.shows}`, recording] as const))('R13 %s', ([, recording], context) => {
    const why = standInTooYoung(recording);
    if (why !== null) {
      console.log(`skipped: ${recording.label}: ${why}`);
      context.skip();
    }
    const rows = rowsAt(homeOf(recording), recording.meta.now);
    // Exactly one row per session: no phantom (Codex's title thread) beside it.
    expect(rows.map((row) => row.key)).toEqual([recording.meta.sessionKey]);
    const [row] = rows;
    expect({ state: row?.observed.state, reason: row?.observed.reason, source: row?.observed.source, claim: row?.claim?.kind ?? null }).toEqual(
      recording.meta.expect,
    );
  });

  it('case 6: with the registry gone, the question hook alone still reads awaiting-input, not approval', () => {
    const recording = all.find((item) => item.label === 'claude-2.1.328/question-hooks-on');
    if (recording === undefined) throw new Error('the Claude question recording is missing');
    const [row] = rowsAt(homeOf(recording, ['.claude/sessions']), recording.meta.now);
    expect(row?.observed.state).toBe('awaiting-input');
    expect(row?.observed.detail).toContain('Which colour');
  });

  it('case 1: with hooks, the StopFailure decides even once the registry says idle, and after a later idle notice', () => {
    const recording = all.find((item) => item.label === 'claude-2.1.328/error-hooks-on');
    if (recording === undefined) throw new Error('the Claude error recording is missing');
    const [row] = rowsAt(homeOf(recording, ['.claude/projects']), recording.meta.now);
    // The transcript left out: only the registry's idle and the hooks speak.
    expect(row?.observed.state).toBe('error');
    expect(row?.observed.source).toBe('claude.hook');
  });
});
