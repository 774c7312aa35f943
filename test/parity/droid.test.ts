// R13: the parity stories through Factory Droid's own reader. Each story is written as Droid's
// session files (0.225.2 shapes: the lead's JSONL, a subagent's session tagged with its caller)
// and must reach the story's one row, or is pinned as a divergence.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultSettings, emptyFacts, evaluate } from '../../src/engine';
import { DroidProvider } from '../../src/providers/droid/provider';
import { T0 } from '../engine/build';
import { summary } from '../providers/fixture-roots';
import { STORIES } from './stories';

const base = mkdtempSync(join(tmpdir(), 'lookout-droid-parity-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const LEAD = 'a0000000-0000-4000-8000-000000000001';
const CHILD = 'c0000000-0000-4000-8000-000000000002';
const iso = (seconds: number): string => new Date(T0 + seconds * 1000).toISOString();

type Line = Record<string, unknown>;
const start = (id: string): Line => ({ type: 'session_start', id, title: 'the story', owner: 'unknown', version: 2, cwd: '/home/me/app', hostId: 'h' });
const prompt = (seconds: number, id = 'p1'): Line => ({
  type: 'message',
  id,
  timestamp: iso(seconds),
  message: { role: 'user', content: [{ type: 'text', text: 'go' }] },
});
const text = (seconds: number): Line => ({
  type: 'message',
  id: `t${seconds}`,
  timestamp: iso(seconds),
  message: { role: 'assistant', content: [{ type: 'text', text: 'Working…' }] },
});
const call = (seconds: number, name: string, input: Line): Line => ({
  type: 'message',
  id: `c${seconds}`,
  timestamp: iso(seconds),
  message: { role: 'assistant', content: [{ type: 'tool_use', id: `call-${seconds}`, name, input }] },
});
const outcome = (reason: string, turnId = 'p1'): Line => ({ type: 'agent_turn_outcome', turnId, reason, resultKind: 'text' });
const ASK = { questionnaire: 'Which database?' };

/** The story in Droid's files: the lead's lines, and a subagent's when the story has one (its lines from its prompt at `started` s). */
const WRITE: Record<string, { lead: Line[]; child?: Line[] }> = {
  'main agent working': { lead: [prompt(0), text(4)] },
  'done with a live subagent': { lead: [prompt(0), text(20), outcome('completed')], child: [prompt(5, 's1'), text(35)] },
  'blocked on a question with a live subagent': { lead: [prompt(0), call(30, 'AskUser', ASK)], child: [prompt(5, 's1'), text(35)] },
  'a child waiting on the user': { lead: [prompt(0), call(10, 'Task', { description: 'research' })], child: [prompt(12, 's1'), call(30, 'AskUser', ASK)] },
  'a failed child is live work, not a request': {
    lead: [prompt(0), text(20), outcome('completed')],
    child: [prompt(5, 's1'), text(30), outcome('model_provider_unavailable', 's1')],
  },
  'failed turn': { lead: [prompt(0), text(30), outcome('model_provider_unavailable')] },
  'interrupted turn with a child': { lead: [prompt(0), text(30), outcome('cancelled')], child: [prompt(5, 's1'), text(25)] },
  'stale evidence': { lead: [prompt(0), text(600)] },
  'tool call pending past the grace': { lead: [prompt(0), call(60, 'Execute', { command: 'npm publish' })] },
  'fresh tool call': { lead: [prompt(0), call(1, 'Execute', { command: 'npm test' })] },
  'long turn finished clean': { lead: [prompt(0), text(60), outcome('completed')] },
  'short turn finished': { lead: [prompt(0), text(3), outcome('completed')] },
  // A session started and not yet prompted: its first line only.
  'no status-bearing record': { lead: [] },
};

/** Stories Droid's files cannot tell, with the reason. */
const KNOWN_DIVERGENCES: Record<string, string> = {
  // KNOWN DIVERGENCE: Droid keeps its background processes in ~/.factory/state, naming no session.
  'done with only a watcher': "Droid's files tie no background watcher to a session",
};

function write(folder: string, id: string, lines: readonly Line[], settings?: Line): void {
  const sessions = join(folder, 'sessions', '-home-me-app');
  mkdirSync(sessions, { recursive: true });
  writeFileSync(join(sessions, `${id}.jsonl`), `${[start(id), ...lines].map((line) => JSON.stringify(line)).join('\n')}\n`);
  if (settings !== undefined) writeFileSync(join(sessions, `${id}.settings.json`), JSON.stringify(settings));
}

describe('parity stories through the Droid reader', () => {
  it.each(STORIES.map((story) => [story.name, story] as const))('R13 story: %s', async (name, story) => {
    const files = WRITE[name];
    if (KNOWN_DIVERGENCES[name] !== undefined) {
      expect(files, `${name} is pinned as a divergence, yet has files`).toBeUndefined();
      return;
    }
    expect(files, `no Droid files tell the story "${name}"`).toBeDefined();
    if (files === undefined) return;
    const folder = join(base, name.replace(/\W+/g, '-'));
    write(folder, LEAD, files.lead);
    if (files.child !== undefined)
      write(folder, CHILD, files.child, { tags: [{ name: 'subagent', metadata: { callingSessionId: LEAD, callingToolUseId: 'call-10' } }] });
    const now = T0 + story.now;
    // Where Droid's processes cannot be told (as off Linux): no writer check, the files alone.
    const evidence = await new DroidProvider(folder, undefined, undefined, () => null).sync(now);
    const row = evaluate({ sessions: evidence, facts: emptyFacts(), settings: defaultSettings(), now, onScreen: null }).snapshot.sessions.find(
      (item) => item.sessionId === LEAD,
    );
    expect(row).toBeDefined();
    if (row !== undefined) expect(summary(row)).toEqual(story.expected);
  });
});
