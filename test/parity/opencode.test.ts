// R13: the parity stories through opencode's own reader, and through the same reader as Kilo CLI
// reads (its flavour: kilo.db, its own ids). Each story is written as an opencode database (1.2.15
// shapes) and must reach the story's one row, or is pinned as a divergence.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultSettings, emptyFacts, evaluate } from '../../src/engine';
import { KILO_FLAVOR } from '../../src/providers/kilo/descriptor';
import type { OpencodeFlavor } from '../../src/providers/opencode/provider';
import { OpencodeProvider } from '../../src/providers/opencode/provider';
import { summary } from '../providers/fixture-roots';
import type { Build } from '../providers/opencode-db';
import { T0, database } from '../providers/opencode-db';
import { STORIES } from './stories';

const base = mkdtempSync(join(tmpdir(), 'lookout-opencode-parity-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const done = (seconds: number, finish: string) => ({ time: { created: T0 + seconds * 1000 - 500, completed: T0 + seconds * 1000 }, finish });
const tool = (status: string, name: string, input: Record<string, unknown>) => ({
  type: 'tool',
  callID: `call_${name}`,
  tool: name,
  state: { status, input, time: { start: T0 } },
});
/** A subagent session started at `started` s, its newest message written at `last` s. */
const child = (b: Build, last: number, started = 5, fields: Record<string, unknown> = {}) => {
  b.session('ses_child', 'Ada', 'ses_lead', false, started);
  b.user('ses_child', started, 'research');
  return b.assistant('ses_child', last, fields);
};

/** The story in opencode's rows: the lead session is `ses_lead`. */
const WRITE: Record<string, (b: Build) => void> = {
  'main agent working': (b) => b.assistant('ses_lead', 4, {}),
  'done with a live subagent': (b) => {
    b.assistant('ses_lead', 20, done(20, 'stop'));
    child(b, 35);
  },
  'blocked on a question with a live subagent': (b) => {
    b.part('ses_lead', b.assistant('ses_lead', 30, {}), 30, tool('running', 'question', { questions: [{ question: 'Which database?' }] }));
    child(b, 35);
  },
  'a child waiting on the user': (b) => {
    b.part('ses_lead', b.assistant('ses_lead', 10, {}), 10, tool('running', 'task', { description: 'research' }));
    b.part('ses_child', child(b, 30), 30, tool('running', 'question', { questions: [{ question: 'Which cache?' }] }));
  },
  'a failed child is live work, not a request': (b) => {
    b.assistant('ses_lead', 20, done(20, 'stop'));
    child(b, 30, 5, { ...done(30, 'stop'), error: { name: 'APIError', data: { message: 'overloaded' } } });
  },
  'failed turn': (b) => b.assistant('ses_lead', 30, { ...done(30, 'stop'), error: { name: 'APIError', data: { message: 'overloaded' } } }),
  'interrupted turn with a child': (b) => {
    b.assistant('ses_lead', 30, { ...done(30, 'stop'), error: { name: 'MessageAbortedError', data: { message: 'Aborted' } } });
    child(b, 25);
  },
  'stale evidence': (b) => b.assistant('ses_lead', 600, {}),
  'tool call pending past the grace': (b) => b.part('ses_lead', b.assistant('ses_lead', 60, {}), 60, tool('running', 'bash', { command: 'npm publish' })),
  'fresh tool call': (b) => b.part('ses_lead', b.assistant('ses_lead', 1, {}), 1, tool('running', 'bash', { command: 'npm test' })),
  'long turn finished clean': (b) => b.assistant('ses_lead', 60, done(60, 'stop')),
  'short turn finished': (b) => b.assistant('ses_lead', 3, done(3, 'stop')),
  // A session opened and not yet prompted: opencode writes the session row before any message.
  'no status-bearing record': () => undefined,
};
const UNPROMPTED = new Set(['no status-bearing record']);

/** Stories opencode's database cannot tell, with the reason. */
const KNOWN_DIVERGENCES: Record<string, string> = {
  // KNOWN DIVERGENCE: opencode records no background watchers.
  'done with only a watcher': 'opencode records no background watchers',
};

const FLAVORS: [string, string, OpencodeFlavor | undefined][] = [
  ['opencode', 'opencode.db', undefined],
  ['Kilo CLI', 'kilo.db', KILO_FLAVOR],
];

describe.each(FLAVORS)('parity stories through the opencode reader, as %s', (agent, file, flavor) => {
  it.each(STORIES.map((story) => [story.name, story] as const))('R13 story: %s', async (name, story) => {
    const write = WRITE[name];
    if (KNOWN_DIVERGENCES[name] !== undefined) {
      expect(write, `${name} is pinned as a divergence, yet has rows`).toBeUndefined();
      return;
    }
    expect(write, `no opencode rows tell the story "${name}"`).toBeDefined();
    if (write === undefined) return;
    const folder = join(base, `${agent}-${name}`.replace(/\W+/g, '-'));
    database(
      folder,
      (b) => {
        b.session('ses_lead', 'lead');
        if (!UNPROMPTED.has(name)) b.user('ses_lead', 0);
        write(b);
      },
      false,
      file,
    ).close();
    const now = T0 + story.now;
    const evidence = await new OpencodeProvider(folder, flavor).sync();
    expect(evidence.every((item) => item.provider === (flavor?.provider ?? 'opencode'))).toBe(true);
    const row = evaluate({ sessions: evidence, facts: emptyFacts(), settings: defaultSettings(), now, onScreen: null }).snapshot.sessions.find(
      (item) => item.sessionId === 'ses_lead',
    );
    expect(row).toBeDefined();
    if (row !== undefined) expect(summary(row)).toEqual(story.expected);
  });
});
