// R13: the parity stories through Qwen Code's own reader. Each story is written as Qwen's files
// (0.24.4 shapes: the lead's chat, a subagent's transcript with its meta file) and must reach the
// story's one row, or is pinned as a divergence.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultSettings, emptyFacts, evaluate } from '../../src/engine';
import { QwenProvider } from '../../src/providers/qwen/provider';
import { T0 } from '../engine/build';
import { summary } from '../providers/fixture-roots';
import { lines, qwenLines } from '../providers/qwen-lines';
import { STORIES } from './stories';

const base = mkdtempSync(join(tmpdir(), 'lookout-qwen-parity-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const LEAD = 'a0000000-0000-4000-8000-000000000001';
const AGENT = 'general-purpose-call_10';
const lead = qwenLines(T0, LEAD);
const sub = qwenLines(T0, LEAD, { agentId: AGENT, isSidechain: true });
const ASK = {
  questions: [
    {
      question: 'Which database?',
      header: 'Database',
      options: [
        { label: 'Postgres', description: 'SQL' },
        { label: 'Redis', description: 'KV' },
      ],
    },
  ],
};

interface Child {
  lines: string[];
  status: 'running' | 'completed' | 'failed';
  /** The meta file's last update, in seconds. */
  updated: number;
}

/** A subagent at work since `from` s: a tool it ran came back at `last` s. */
const working = (from: number, last: number): Child => ({
  lines: [sub.prompt(from, 'look around'), sub.call(last - 1, 'c-sub', 'list_directory', { path: '.' }), sub.result(last, 'c-sub', 'success')],
  status: 'running',
  updated: from,
});

/** The story in Qwen's files: the lead's chat, and a subagent's when the story has one. */
const WRITE: Record<string, { lead: string[]; child?: Child }> = {
  'main agent working': { lead: [lead.prompt(0, 'go'), lead.thought(4)] },
  'done with a live subagent': { lead: [lead.prompt(0, 'go'), lead.api(19.9), lead.assistant(20, 'Started it.')], child: working(5, 35) },
  'blocked on a question with a live subagent': {
    lead: [lead.prompt(0, 'go'), lead.api(29.9), lead.call(30, 'c-ask', 'ask_user_question', ASK)],
    child: working(5, 35),
  },
  'a child waiting on the user': {
    lead: [lead.prompt(0, 'go'), lead.api(9.9), lead.call(10, 'call_10', 'agent', { description: 'research', prompt: 'x' })],
    child: { lines: [sub.prompt(12, 'research'), sub.call(30, 'c-ask', 'ask_user_question', ASK)], status: 'running', updated: 12 },
  },
  'a failed child is live work, not a request': {
    lead: [lead.prompt(0, 'go'), lead.api(19.9), lead.assistant(20, 'Started it.')],
    child: { lines: [sub.prompt(5, 'look'), sub.assistant(25, 'Looking…')], status: 'failed', updated: 30 },
  },
  'failed turn': { lead: [lead.prompt(0, 'go'), lead.apiError(30, 401, 'bad key')] },
  'interrupted turn with a child': { lead: [lead.prompt(0, 'go'), lead.assistant(30, 'Half an ans', false)], child: working(5, 25) },
  'stale evidence': { lead: [lead.prompt(0, 'go'), lead.thought(600)] },
  'tool call pending past the grace': { lead: [lead.prompt(0, 'go'), lead.api(59.9), lead.call(60, 'c1', 'run_shell_command', { command: 'npm publish' })] },
  'fresh tool call': { lead: [lead.prompt(0, 'go'), lead.api(0.9), lead.call(1, 'c1', 'run_shell_command', { command: 'npm test' })] },
  'long turn finished clean': { lead: [lead.prompt(0, 'go'), lead.api(59.9), lead.assistant(60, 'Done.')] },
  'short turn finished': { lead: [lead.prompt(0, 'go'), lead.api(2.9), lead.assistant(3, 'Done.')] },
  // A session with no turn yet: a slash command is all it wrote.
  'no status-bearing record': { lead: [lead.system(0, 'slash_command', { phase: 'invocation', rawCommand: '/approval-mode default' })] },
};

/** Stories Qwen's files cannot tell, with the reason. */
const KNOWN_DIVERGENCES: Record<string, string> = {
  // KNOWN DIVERGENCE: Qwen's background shells are tool results in the chat; no file says one still runs.
  'done with only a watcher': "Qwen's files tie no running background watcher to a session",
};

function write(folder: string, story: { lead: string[]; child?: Child }): void {
  const project = join(folder, 'projects', '-home-dev-app');
  mkdirSync(join(project, 'chats'), { recursive: true });
  writeFileSync(join(project, 'chats', `${LEAD}.jsonl`), lines(...story.lead));
  const child = story.child;
  if (child === undefined) return;
  const agents = join(project, 'subagents', LEAD);
  mkdirSync(agents, { recursive: true });
  writeFileSync(join(agents, `agent-${AGENT}.jsonl`), lines(...child.lines));
  const meta = {
    agentId: AGENT,
    agentType: 'general-purpose',
    description: 'research',
    parentSessionId: LEAD,
    toolUseId: 'call_10',
    createdAt: lead.iso(5),
    status: child.status,
    lastUpdatedAt: lead.iso(child.updated),
  };
  writeFileSync(join(agents, `agent-${AGENT}.meta.json`), JSON.stringify(meta));
}

describe('parity stories through the Qwen Code reader', () => {
  it.each(STORIES.map((story) => [story.name, story] as const))('R13 story: %s', async (name, story) => {
    const files = WRITE[name];
    if (KNOWN_DIVERGENCES[name] !== undefined) {
      expect(files, `${name} is pinned as a divergence, yet has files`).toBeUndefined();
      return;
    }
    expect(files, `no Qwen files tell the story "${name}"`).toBeDefined();
    if (files === undefined) return;
    const folder = join(base, name.replace(/\W+/g, '-'));
    write(folder, files);
    const now = T0 + story.now;
    const evidence = await new QwenProvider(folder).sync(now);
    const row = evaluate({ sessions: evidence, facts: emptyFacts(), settings: defaultSettings(), now, onScreen: null }).snapshot.sessions.find(
      (item) => item.sessionId === LEAD,
    );
    expect(row).toBeDefined();
    if (row !== undefined) expect(summary(row)).toEqual(story.expected);
  });
});
