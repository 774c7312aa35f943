// R13, hook-driven variants: the same hook stories, told through each provider's files and its
// hook payloads (spool → merge → the one fold), reach the same row.
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultSettings, emptyFacts, evaluate } from '../../src/engine';
import { mergeHooks } from '../../src/providers/hooks/merge';
import { HookSpool } from '../../src/providers/hooks/spool-reader';
import { findProvider, spoolReaders } from '../../src/providers';
import { fixtures, sourceFor, summary } from '../providers/fixture-roots';
import type { ExpectedRow } from './stories';

interface HookStory {
  name: string;
  /** Seconds after 12:00:00 when each hook event fires. */
  events: [number, Record<string, unknown>][];
  now: number;
  expected: ExpectedRow;
}

/** Both providers start from the fixture "working": a turn open since 12:00:00. */
const HOOK_STORIES: HookStory[] = [
  {
    name: 'an approval prompt raised by a hook',
    events: [[20, { hook_event_name: 'PermissionRequest', tool_name: 'Bash', tool_input: { command: 'npm publish' } }]],
    now: 30,
    expected: { state: 'awaiting-approval', reason: 'approval-requested', workflow: 'needs-input', liveness: 'none', claim: 'needs-you' },
  },
  {
    name: 'an approval answered (a later tool event)',
    events: [
      [20, { hook_event_name: 'PermissionRequest', tool_name: 'Bash' }],
      [25, { hook_event_name: 'PostToolUse', tool_name: 'Bash' }],
    ],
    now: 30,
    expected: { state: 'running', reason: 'provider-busy', workflow: 'working', liveness: 'none', claim: null },
  },
  {
    // Async hooks land in any order: the call's own PreToolUse, written late, does not answer its prompt.
    name: 'an approval prompt whose PreToolUse was written after it',
    events: [
      [20, { hook_event_name: 'PermissionRequest', tool_name: 'Bash', tool_input: { command: 'npm publish' } }],
      [21, { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'npm publish' } }],
    ],
    now: 30,
    expected: { state: 'awaiting-approval', reason: 'approval-requested', workflow: 'needs-input', liveness: 'none', claim: 'needs-you' },
  },
  {
    name: 'a turn stopped (hook)',
    events: [[20, { hook_event_name: 'Stop' }]],
    now: 30,
    expected: { state: 'idle', reason: 'turn-finished', workflow: 'unreviewed', liveness: 'none', claim: 'finished' },
  },
  {
    name: 'a turn failed (hook)',
    events: [[20, { hook_event_name: 'StopFailure', error: 'overloaded' }]],
    now: 30,
    expected: { state: 'error', reason: 'api-error', workflow: 'needs-input', liveness: 'none', claim: 'failed' },
  },
  {
    name: 'a mid-turn mark lapses after hookWorkingHold',
    events: [[5, { hook_event_name: 'PreToolUse', tool_name: 'Bash' }]],
    now: 5 + 91,
    expected: { state: 'running', reason: 'turn-open', workflow: 'working', liveness: 'none', claim: null },
  },
  {
    name: 'a subagent started by a hook holds the row open after the turn stops',
    events: [
      [10, { hook_event_name: 'SubagentStart', agent_id: 'ag1', agent_type: 'Explore' }],
      [20, { hook_event_name: 'Stop' }],
    ],
    now: 30,
    expected: { state: 'running-subagents', reason: 'child-working', workflow: 'working', liveness: 'working', claim: null },
  },
];

/** Claude's question: its PreToolUse written after its PermissionRequest, then the permission notification (a CI run, 2.1.328). */
const LATE_QUESTION: HookStory = {
  name: 'a question whose hooks landed out of order',
  events: [
    [20, { hook_event_name: 'PermissionRequest', tool_name: 'AskUserQuestion', tool_input: { questions: [{ question: 'Which colour?' }] }, prompt_id: 'p1' }],
    [
      21,
      {
        hook_event_name: 'PreToolUse',
        tool_name: 'AskUserQuestion',
        tool_input: { questions: [{ question: 'Which colour?' }] },
        prompt_id: 'p1',
        tool_use_id: 'toolu_1',
      },
    ],
    [22, { hook_event_name: 'Notification', notification_type: 'permission_prompt', message: 'Claude needs your permission' }],
  ],
  now: 30,
  expected: { state: 'awaiting-input', reason: 'input-requested', workflow: 'needs-input', liveness: 'none', claim: 'needs-you' },
};

/** Claude has SessionEnd; Codex publishes no schema for it (a pinned divergence). */
const SESSION_END: HookStory = {
  name: 'a session ended (hook)',
  events: [[20, { hook_event_name: 'SessionEnd', reason: 'prompt_input_exit' }]],
  now: 30,
  expected: { state: 'ended', reason: 'session-end-hook', workflow: 'unreviewed', liveness: 'none', claim: null },
};

const base = mkdtempSync(join(tmpdir(), 'lookout-hook-parity-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const T0 = Date.parse('2026-11-29T12:00:00.000Z');
let n = 0;

async function tell(provider: 'claude' | 'codex', story: HookStory) {
  n += 1;
  const dir = join(base, `story-${n}`);
  const fixture = fixtures(provider).find((item) => item.name === 'working');
  if (fixture === undefined) throw new Error('no working fixture');
  cpSync(fixture.root, join(dir, 'root'), { recursive: true });
  const sessionId = fixture.meta.sessionKey.slice(provider.length + 1);
  mkdirSync(join(dir, 'spool'), { recursive: true });
  const lines = story.events.map(([seconds, payload]) =>
    JSON.stringify({ provider, at: T0 + seconds * 1000, precision: 'ms', channel: 'hook', payload: { session_id: sessionId, ...payload } }),
  );
  writeFileSync(join(dir, 'spool', `${provider}.jsonl`), `${lines.join('\n')}\n`);
  const now = T0 + story.now * 1000;
  const evidence = mergeHooks(
    await sourceFor(provider, join(dir, 'root')).sync(now),
    await new HookSpool(join(dir, 'spool'), spoolReaders([provider])).sync(),
    (id) => findProvider(id)?.transcriptSource ?? '',
  );
  const row = evaluate({ sessions: evidence, facts: emptyFacts(), settings: defaultSettings(), now, onScreen: null }).snapshot.sessions.find(
    (item) => item.key === fixture.meta.sessionKey,
  );
  return row === undefined ? null : summary(row);
}

describe('hook-driven parity stories', () => {
  for (const provider of ['claude', 'codex'] as const) {
    it.each(HOOK_STORIES.map((story) => [story.name, story] as const))(`R13 ${provider} hook story: %s`, async (_name, story) => {
      expect(await tell(provider, story)).toEqual(story.expected);
    });
  }

  it('R3 claude hook story: a question whose hooks landed out of order', async () => {
    expect(await tell('claude', LATE_QUESTION)).toEqual(LATE_QUESTION.expected);
  });

  it('R13 claude hook story: a session ended (hook)', async () => {
    expect(await tell('claude', SESSION_END)).toEqual(SESSION_END.expected);
  });

  // KNOWN DIVERGENCE: Codex documents SessionEnd but publishes no schema for it, so Lookout does
  // not install it for Codex; a Codex session is never `ended` by a hook it was not sent.
  it('R13 codex hook story "a session ended" is a pinned divergence (not installed for Codex)', async () => {
    const { CODEX_EVENTS } = await import('../../src/providers/codex/descriptor');
    expect(CODEX_EVENTS.map((spec) => spec.event)).not.toContain('SessionEnd');
  });
});
