// R13: the parity stories through Pi's own reader. Each story is written as Pi's session file
// (0.73.1 shapes: a header, then entries chained by parentId) and must reach the story's one row,
// or is pinned as a divergence.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultSettings, emptyFacts, evaluate } from '../../src/engine';
import { PiProvider } from '../../src/providers/pi/provider';
import { T0 } from '../engine/build';
import { summary } from '../providers/fixture-roots';
import { STORIES } from './stories';

const base = mkdtempSync(join(tmpdir(), 'lookout-pi-parity-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const LEAD = '01a244aa-0000-7000-8000-000000000001';
const iso = (seconds: number): string => new Date(T0 + seconds * 1000).toISOString();

type Line = Record<string, unknown>;
const message = (seconds: number, body: Line): Line => ({ type: 'message', timestamp: iso(seconds), message: { ...body, timestamp: T0 + seconds * 1000 } });
const prompt = (seconds: number): Line => message(seconds, { role: 'user', content: [{ type: 'text', text: 'go' }] });
const assistant = (seconds: number, content: Line[], stopReason: string, errorMessage?: string): Line =>
  message(seconds, { role: 'assistant', content, stopReason, ...(errorMessage === undefined ? {} : { errorMessage }) });
const text = (seconds: number): Line => assistant(seconds, [{ type: 'text', text: 'Done.' }], 'stop');
const call = (seconds: number, command: string): Line =>
  assistant(seconds, [{ type: 'toolCall', id: `call-${seconds}`, name: 'bash', arguments: { command } }], 'toolUse');
const result = (seconds: number, id: string): Line =>
  message(seconds, { role: 'toolResult', toolCallId: id, toolName: 'bash', content: [{ type: 'text', text: 'ok' }], isError: false });
const failed = (seconds: number): Line => assistant(seconds, [], 'error', '401 unauthorized');
const aborted = (seconds: number): Line => assistant(seconds, [], 'aborted', 'Operation aborted');

/** The story in Pi's files; `asks`: an extension of the person's is loaded (one may ask before a call). */
const WRITE: Record<string, { lines: Line[]; asks?: boolean }> = {
  'main agent working': { lines: [prompt(0), call(2, 'ls'), result(4, 'call-2')] },
  'failed turn': { lines: [prompt(0), failed(30)] },
  'interrupted turn with a child': { lines: [prompt(0), aborted(30)] },
  'stale evidence': { lines: [prompt(0), call(300, 'ls'), result(600, 'call-300')] },
  'tool call pending past the grace': { lines: [prompt(0), call(60, 'npm publish')], asks: true },
  'fresh tool call': { lines: [prompt(0), call(1, 'npm test')] },
  'long turn finished clean': { lines: [prompt(0), text(60)] },
  'short turn finished': { lines: [prompt(0), text(3)] },
  // A session with no message yet: its header and its model.
  'no status-bearing record': { lines: [] },
};

/** Stories Pi's files cannot tell, with the reason. */
const KNOWN_DIVERGENCES: Record<string, string> = {
  // KNOWN DIVERGENCE: Pi has no subagents, questions or background watchers of its own (its README).
  'done with a live subagent': 'Pi has no subagents',
  'done with only a watcher': 'Pi has no background work of its own',
  'blocked on a question with a live subagent': 'Pi has no question tool and no subagents',
  'a child waiting on the user': 'Pi has no subagents',
  'a failed child is live work, not a request': 'Pi has no subagents',
};

function write(folder: string, lines: readonly Line[], asks: boolean): void {
  const sessions = join(folder, 'sessions', '--home-me-app--');
  mkdirSync(sessions, { recursive: true });
  let parent: string | null = null;
  const chained = [{ type: 'model_change', timestamp: iso(0), provider: 'lab', modelId: 'fake-model' }, ...lines].map((line, index) => {
    const id = `e${String(index).padStart(7, '0')}`;
    const entry = { ...line, id, parentId: parent };
    parent = id;
    return entry;
  });
  const header = { type: 'session', version: 3, id: LEAD, timestamp: iso(0), cwd: '/home/me/app' };
  writeFileSync(join(sessions, `2026-12-05T05-26-00-000Z_${LEAD}.jsonl`), `${[header, ...chained].map((line) => JSON.stringify(line)).join('\n')}\n`);
  if (asks) {
    mkdirSync(join(folder, 'extensions'), { recursive: true });
    writeFileSync(join(folder, 'extensions', 'permission-gate.ts'), '// asks before rm -rf');
  }
}

describe('parity stories through the Pi reader', () => {
  it.each(STORIES.map((story) => [story.name, story] as const))('R13 story: %s', async (name, story) => {
    const files = WRITE[name];
    if (KNOWN_DIVERGENCES[name] !== undefined) {
      expect(files, `${name} is pinned as a divergence, yet has files`).toBeUndefined();
      return;
    }
    expect(files, `no Pi files tell the story "${name}"`).toBeDefined();
    if (files === undefined) return;
    const folder = join(base, name.replace(/\W+/g, '-'));
    write(folder, files.lines, files.asks === true);
    const now = T0 + story.now;
    // Where Pi's processes cannot be told (as off Linux): no writer check, the files alone.
    const evidence = await new PiProvider(folder, join(folder, 'sessions'), undefined, undefined, () => null).sync(now);
    const row = evaluate({ sessions: evidence, facts: emptyFacts(), settings: defaultSettings(), now, onScreen: null }).snapshot.sessions.find(
      (item) => item.sessionId === LEAD,
    );
    expect(row).toBeDefined();
    if (row !== undefined) expect(summary(row)).toEqual(story.expected);
  });
});
