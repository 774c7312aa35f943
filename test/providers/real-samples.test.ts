// The parsers on files the agents themselves wrote (shared/real-samples). Where that folder is
// absent the tests skip, saying why. Each sample is read where it lies, never copied into the repo.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { SessionEvidence } from '../../src/engine';
import { defaultSettings, emptyFacts, evaluate } from '../../src/engine';
import { ClaudeProvider } from '../../src/providers/claude/provider';
import { CodexProvider } from '../../src/providers/codex/provider';

const SAMPLES = resolve(__dirname, '../../../shared/real-samples');
const present = existsSync(SAMPLES);
if (!present) console.log(`real-sample tests skipped: ${SAMPLES} is not here`);

// Made only when the samples are here: a file whose every test is skipped runs no afterAll.
const work = present ? mkdtempSync(join(tmpdir(), 'lookout-samples-')) : '';
afterAll(() => {
  if (work !== '') rmSync(work, { recursive: true, force: true });
});

/** A provider root holding one sample (plus its subagent folder), as the agent lays it out. */
function claudeRoot(file: string): string {
  const root = join(work, `claude-${basename(file)}`);
  const project = join(root, 'projects', '-sample');
  mkdirSync(project, { recursive: true });
  cpSync(join(SAMPLES, 'claude', file), join(project, basename(file)));
  const folder = join(SAMPLES, 'claude', file.replace(/\.jsonl$/, ''));
  if (existsSync(folder)) cpSync(folder, join(project, basename(folder)), { recursive: true });
  return root;
}

function codexRoot(file: string): string {
  const root = join(work, `codex-${basename(file)}`);
  const day = join(root, 'sessions', '2026', '05', '01');
  mkdirSync(day, { recursive: true });
  cpSync(join(SAMPLES, 'codex', file), join(day, `rollout-${basename(file)}`));
  return root;
}

async function only(evidence: SessionEvidence[]): Promise<SessionEvidence> {
  expect(evidence).toHaveLength(1);
  return evidence[0] as SessionEvidence;
}

/** The row a second after the newest record, and ten seconds after (past R3's grace). */
function rowsAfter(evidence: SessionEvidence, seconds: number) {
  const now = (evidence.lastRecordAt ?? 0) + seconds * 1000;
  return evaluate({ sessions: [evidence], facts: emptyFacts(), settings: defaultSettings(), now, onScreen: null }).snapshot.sessions[0];
}

const CLAUDE: [string, string, string][] = [
  ['irrlicht-basic-turn-2.1.143.jsonl', 'idle', 'turn-finished'],
  ['irrlicht-bash-tool-finished-2.1.143.jsonl', 'idle', 'turn-finished'],
  ['irrlicht-esc-interrupt-2.1.143.jsonl', 'idle', 'interrupted'],
  ['irrlicht-interrupt-then-new-turn-2.1.126.jsonl', 'idle', 'turn-finished'],
  ['irrlicht-api-error-message-2.1.148.jsonl', 'error', 'api-error'],
  ['irrlicht-api-error-retries-2.1.143.jsonl', 'running', 'turn-open'],
  ['irrlicht-compaction-2.1.143.jsonl', 'idle', 'turn-finished'],
  ['irrlicht-pending-agent-tool-2.1.143.jsonl', 'running', 'tool-running'],
  ['irrlicht-pending-exitplanmode-2.1.149.jsonl', 'awaiting-input', 'plan-approval-pending'],
  // The prompt is open but no tool_use is written yet: without the registry the transcript shows an open turn.
  ['irrlicht-permission-prompt-open-2.1.143.jsonl', 'running', 'turn-open'],
  ['irrlicht-subagent-parent-2.1.119.jsonl', 'idle', 'turn-finished'],
  ['irrlicht-background-subagent-2.1.156.jsonl', 'running', 'turn-open'],
  ['irrlicht-stop-hook-2.1.235.jsonl', 'idle', 'turn-finished'],
  ['irrlicht-tool-denial-esc-2.1.96.jsonl', 'idle', 'turn-finished'],
  ['spotter-rejected-tools-2.1.38.jsonl', 'idle', 'interrupted'],
  ['codemie-summary-records-2.1.4.jsonl', 'idle', 'turn-finished'],
];

const CODEX: [string, string, string][] = [
  ['irrlicht-basic-turn-exec-0.130.0.jsonl', 'idle', 'turn-finished'],
  ['irrlicht-basic-turn-tui-0.135.0.jsonl', 'idle', 'turn-finished'],
  ['irrlicht-tool-call-0.130.0.jsonl', 'idle', 'turn-finished'],
  ['irrlicht-turn-aborted-0.130.0.jsonl', 'idle', 'turn-finished'],
  ['irrlicht-compaction-0.130.0.jsonl', 'idle', 'turn-finished'],
  // untrusted policy, a call with no output and no task_complete: it may be waiting (R3).
  ['irrlicht-pending-approval-0.147.0.jsonl', 'unknown', 'tool-pending'],
  ['irrlicht-plan-mode-apply-patch-0.130.0.jsonl', 'idle', 'turn-finished'],
  ['irrlicht-mid-turn-message-0.130.0.jsonl', 'idle', 'turn-finished'],
  ['irrlicht-multi-turn-0.128.0.jsonl', 'idle', 'turn-finished'],
  ['irrlicht-long-session-0.118.0.jsonl', 'idle', 'turn-finished'],
];

describe.skipIf(!present)('real Claude Code files', () => {
  it.each(CLAUDE)('§11 %s reads as %s/%s', async (file, state, reason) => {
    const evidence = await only(await new ClaudeProvider(claudeRoot(file)).sync(Date.now()));
    expect(evidence.skippedLines).toBe(0);
    const row = rowsAfter(evidence, 10);
    expect({ state: row?.observed.state, reason: row?.observed.reason }).toEqual({ state, reason });
    expect(row?.title).not.toBeNull();
    expect(row?.cwd).not.toBeNull();
  });

  it('§11 the three 2.1.119 subagent transcripts are children of their parent, all done', async () => {
    const evidence = await only(await new ClaudeProvider(claudeRoot('irrlicht-subagent-parent-2.1.119.jsonl')).sync(Date.now()));
    expect(evidence.children).toHaveLength(3);
    expect(rowsAfter(evidence, 10)?.children).toEqual({ liveness: 'none', live: 0 });
  });

  it('§11 a task notification opens a turn but never names the session', async () => {
    const evidence = await only(await new ClaudeProvider(claudeRoot('irrlicht-background-subagent-2.1.156.jsonl')).sync(Date.now()));
    expect(evidence.title).not.toMatch(/task-notification/);
  });

  it('§11 old 2.0.64 sibling agent files attach to their parent by sessionId', async () => {
    const root = join(work, 'claude-codemie');
    cpSync(join(SAMPLES, 'claude', 'codemie-2.0.64'), join(root, 'projects', '-tmp-private'), { recursive: true });
    const sessions = await new ClaudeProvider(root).sync(Date.now());
    expect(sessions).toHaveLength(1);
    expect(sessions[0]?.children.length).toBeGreaterThan(0);
  });

  it('§11 the real registry record parses: busy with procStart, pid checked', async () => {
    const root = claudeRoot('irrlicht-basic-turn-2.1.143.jsonl');
    mkdirSync(join(root, 'sessions'));
    cpSync(join(SAMPLES, 'claude', 'sessions-registry-pid.json'), join(root, 'sessions', '70260.json'));
    const sessions = await new ClaudeProvider(root).sync(Date.now());
    // The record's sessionId is zeroed, so it names no transcript here; its pid is not running: no row.
    expect(sessions.map((session) => session.sessionId)).not.toContain('00000000-0000-4000-8000-000000000000');
  });
});

describe.skipIf(!present)('real Codex rollouts', () => {
  it.each(CODEX)('§11 %s reads as %s/%s', async (file, state, reason) => {
    const evidence = await only(await new CodexProvider(codexRoot(file)).sync(Date.now()));
    expect(evidence.skippedLines).toBe(0);
    const row = rowsAfter(evidence, 10);
    expect({ state: row?.observed.state, reason: row?.observed.reason }).toEqual({ state, reason });
    expect(row?.title).not.toBeNull();
  });

  it('§11 a forked rollout is keyed by its first session_meta', async () => {
    const evidence = await only(await new CodexProvider(codexRoot('irrlicht-fork-CONCATENATED-0.130.0.jsonl')).sync(Date.now()));
    // The harness concatenated two files: the first line's session_meta describes this one.
    const firstLine = readFileSync(join(SAMPLES, 'codex', 'irrlicht-fork-CONCATENATED-0.130.0.jsonl'), 'utf8').split('\n')[0] ?? '';
    const firstId = (JSON.parse(firstLine) as { payload: { id: string } }).payload.id;
    expect(evidence.sessionId).toBe(firstId);
    expect(evidence.turn).not.toBeNull();
  });

  it('§11 the legacy layout (no session_meta, no envelope) still yields a session', async () => {
    const evidence = await only(await new CodexProvider(codexRoot('irrlicht-legacy-format-no-session_meta.jsonl')).sync(Date.now()));
    expect(evidence.sessionId).toBe('031d3ab5-1e7f-4e55-8e54-10ebd73d1a8d');
    expect(rowsAfter(evidence, 10)?.observed.state).toBe('idle');
  });

  it('§11 a subagent rollout header makes a child of its parent thread, not a row', async () => {
    const root = join(work, 'codex-headers');
    cpSync(join(SAMPLES, 'codex', 'irrlicht-subagent-headers'), join(root, 'sessions', '2026', '07', '14'), { recursive: true });
    const sessions = await new CodexProvider(root).sync(Date.now());
    expect(sessions.map((session) => session.sessionId)).toEqual(['019f6249-055d-76d3-b381-cd9d3eb99189']);
  });
});
