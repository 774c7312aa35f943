// R13: the parity stories through Cline CLI's own reader. Each story is written as Cline's data
// folder (3.0.65 shapes: the session table with each session's status, its saved messages, a
// subagent's row under its parent) and must reach the story's one row, or is pinned as a divergence.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { T0 } from '../engine/build';
import { summary } from '../providers/fixture-roots';
import type { SessionSpec } from '../providers/cline-home';
import { ClineHome, call, failure, reply, rowsOf, user } from '../providers/cline-home';
import { STORIES } from './stories';

const homes: ClineHome[] = [];
afterAll(() => {
  for (const made of homes) rmSync(join(made.root, '..'), { recursive: true, force: true });
});

const s = (seconds: number): number => T0 + seconds * 1000;
const ask = (seconds: number): unknown =>
  call(s(seconds), `call_q${seconds}`, 'ask_question', { question: 'Which database?', options: ['Postgres', 'SQLite'] });
const spawn = (seconds: number): unknown => call(s(seconds), `call_s${seconds}`, 'spawn_agent', { systemPrompt: 'Research.', task: 'research' });

type Lead = Omit<SessionSpec, 'id'>;
/** A subagent's row: its status, when it started and last changed, its messages. */
type Child = Omit<SessionSpec, 'id' | 'parentId'>;

/** The story in Cline's rows. The rows name no process (pid 0): the files alone speak, as where no process can be asked. */
const WRITE: Record<string, { lead: Lead; child?: Child }> = {
  'main agent working': { lead: { status: 'running', updatedAt: s(4), messages: [user(s(0), 'go')] } },
  'done with a live subagent': {
    lead: { status: 'idle', updatedAt: s(20), messages: [user(s(0), 'go'), reply(s(20), 'Done.')] },
    child: { status: 'running', startedAt: s(5), updatedAt: s(35), messages: [user(s(5), 'research')] },
  },
  'blocked on a question with a live subagent': {
    lead: { status: 'running', updatedAt: s(30), messages: [user(s(0), 'go'), ask(30)] },
    child: { status: 'running', startedAt: s(5), updatedAt: s(35), messages: [user(s(5), 'research')] },
  },
  'a child waiting on the user': {
    lead: { status: 'running', updatedAt: s(10), messages: [user(s(0), 'go'), spawn(10)] },
    child: { status: 'running', startedAt: s(12), updatedAt: s(30), messages: [user(s(12), 'research'), ask(30)] },
  },
  'a failed child is live work, not a request': {
    lead: { status: 'idle', updatedAt: s(20), messages: [user(s(0), 'go'), reply(s(20), 'Done.')] },
    child: { status: 'idle', startedAt: s(5), updatedAt: s(30), messages: [user(s(5), 'research'), failure(s(30), 'overloaded')] },
  },
  'failed turn': { lead: { status: 'idle', updatedAt: s(30), messages: [user(s(0), 'go'), failure(s(30), 'overloaded')] } },
  // Escape: the status goes idle with the prompt saved unanswered.
  'interrupted turn with a child': {
    lead: { status: 'idle', updatedAt: s(30), messages: [user(s(0), 'go')] },
    child: { status: 'running', startedAt: s(5), updatedAt: s(25), messages: [user(s(5), 'research')] },
  },
  'stale evidence': { lead: { status: 'running', updatedAt: s(600), messages: [user(s(600), 'go')] } },
  'tool call pending past the grace': {
    lead: { status: 'running', updatedAt: s(60), messages: [user(s(0), 'go'), call(s(60), 'call_1', 'run_commands', { commands: 'npm publish' })] },
  },
  'fresh tool call': {
    lead: { status: 'running', updatedAt: s(1), messages: [user(s(0), 'go'), call(s(1), 'call_1', 'run_commands', { commands: 'npm test' })] },
  },
  'long turn finished clean': { lead: { status: 'idle', updatedAt: s(60), messages: [user(s(0), 'go'), reply(s(60), 'Done.')] } },
  'short turn finished': { lead: { status: 'idle', updatedAt: s(3), messages: [user(s(0), 'go'), reply(s(3), 'Done.')] } },
  // Prompted, nothing saved yet, and no turn under way by its status.
  'no status-bearing record': { lead: { status: 'idle', updatedAt: s(0), messages: [] } },
};

/** Stories Cline's files cannot tell, with the reason. */
const KNOWN_DIVERGENCES: Record<string, string> = {
  // KNOWN DIVERGENCE: Cline CLI records no background watchers.
  'done with only a watcher': "Cline CLI's files tie no background watcher to a session",
};

describe('parity stories through the Cline CLI reader', () => {
  it.each(STORIES.map((story) => [story.name, story] as const))('R13 story: %s', async (name, story) => {
    const files = WRITE[name];
    if (KNOWN_DIVERGENCES[name] !== undefined) {
      expect(files, `${name} is pinned as a divergence, yet has files`).toBeUndefined();
      return;
    }
    expect(files, `no Cline rows tell the story "${name}"`).toBeDefined();
    if (files === undefined) return;
    const made = new ClineHome();
    homes.push(made);
    made.session({ id: 'lead', pid: 0, startedAt: T0, ...files.lead });
    if (files.child !== undefined) made.session({ id: 'lead__agent_1', parentId: 'lead', pid: 0, prompt: 'research', ...files.child });
    made.close();
    const rows = await rowsOf(made.root, T0 + story.now);
    const row = rows.find((item) => item.sessionId === 'lead');
    expect(rows).toHaveLength(1);
    if (row !== undefined) expect(summary(row)).toEqual(story.expected);
  });
});
