// Real opencode runs recorded by Irrlicht (../shared/real-samples/irrlicht-opencode): each
// transcript.jsonl is opencode's own part rows exported from its database (part.data byte for
// byte, plus the harness's _role, _ts and _error from the message). The rows are put back into a
// database of opencode's schema — a message per user turn and per assistant step (step-start …
// step-finish), `finish` and `time.completed` from the step-finish, `error` from _error — and read
// as Lookout reads opencode. Irrlicht's own expectation (expected.jsonl) is a peer's opinion: where
// Lookout says more (a reply cut at the length limit is an error to look at), it is noted.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DatabaseSync } from '@photostructure/sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultSettings, emptyFacts, evaluate } from '../../src/engine';
import { OpencodeProvider } from '../../src/providers/opencode/provider';

const RECORDINGS = resolve(__dirname, '../../../shared/real-samples/irrlicht-opencode');
const present = existsSync(RECORDINGS);
if (!present) console.log(`opencode recording tests skipped: ${RECORDINGS} is not here`);
// Made only when the recordings are here: a file whose every test is skipped runs no afterAll.
const base = present ? mkdtempSync(join(tmpdir(), 'lookout-opencode-rec-')) : '';
afterAll(() => {
  if (base !== '') rmSync(base, { recursive: true, force: true });
});

const SCHEMA = `PRAGMA journal_mode=WAL;
CREATE TABLE session (id text PRIMARY KEY, project_id text NOT NULL, parent_id text, slug text NOT NULL, directory text NOT NULL, title text NOT NULL, version text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, time_compacting integer, time_archived integer);
CREATE TABLE message (id text PRIMARY KEY, session_id text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
CREATE TABLE part (id text PRIMARY KEY, message_id text NOT NULL, session_id text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
CREATE INDEX message_session_time_created_id_idx ON message (session_id, time_created, id);
CREATE INDEX part_message_id_id_idx ON part (message_id, id);`;

type Part = Record<string, unknown> & { _role?: string; _ts?: number; _cwd?: string; _error?: unknown };

/** The recording's parts back in a database: one session, its messages rebuilt from the parts. */
function rebuild(transcript: string, folder: string): number {
  const parts = readFileSync(transcript, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Part);
  mkdirSync(folder, { recursive: true });
  const db = new DatabaseSync(join(folder, 'opencode.db'));
  db.exec(SCHEMA);
  const first = parts[0]?._ts ?? 0;
  const last = parts.at(-1)?._ts ?? first;
  db.prepare('INSERT INTO session VALUES (?,?,?,?,?,?,?,?,?,?,?)').run(
    'ses_rec',
    'global',
    null,
    'slug',
    parts[0]?._cwd ?? '/',
    'recorded',
    '1.14.50',
    first,
    last,
    null,
    null,
  );
  interface Rebuilt {
    id: string;
    data: Record<string, unknown>;
    parts: Part[];
  }
  let message: Rebuilt | null = null;
  const messages: Rebuilt[] = [];
  for (const part of parts) {
    const role = part._role === 'user' ? 'user' : 'assistant';
    const opensStep = role === 'assistant' && part.type === 'step-start';
    if (message === null || message.data.role !== role || opensStep) {
      message = { id: `msg_${String(messages.length).padStart(4, '0')}`, data: { role, time: { created: part._ts } }, parts: [] };
      messages.push(message);
    }
    message.parts.push(part);
    if (part.type === 'step-finish') {
      message.data.time = { created: (message.data.time as { created: number }).created, completed: part._ts };
      message.data.finish = part.reason;
      message.data.tokens = part.tokens;
    }
    if (part._error !== null && part._error !== undefined) message.data.error = part._error;
  }
  for (const item of messages) {
    const created = (item.data.time as { created: number }).created;
    db.prepare('INSERT INTO message VALUES (?,?,?,?,?)').run(item.id, 'ses_rec', created, created, JSON.stringify(item.data));
    item.parts.forEach((part, index) => {
      const data = Object.fromEntries(Object.entries(part).filter(([key]) => !key.startsWith('_')));
      db.prepare('INSERT INTO part VALUES (?,?,?,?,?,?)').run(
        `prt_${item.id}_${index}`,
        item.id,
        'ses_rec',
        part._ts ?? created,
        part._ts ?? created,
        JSON.stringify(data),
      );
    });
  }
  db.close();
  return last;
}

/**
 * Each recording's final state as Lookout reads it (2 s after its last row). Irrlicht expects
 * "ready" at the end of every one of these except where noted.
 */
const EXPECTED: Record<string, [state: string, reason: string]> = {
  '1-1_session-start': ['idle', 'turn-finished'],
  '1-2_session-end': ['idle', 'turn-finished'],
  '1-3_long-idle-live-session': ['idle', 'turn-finished'],
  '1-4_session-resume': ['idle', 'turn-finished'],
  '1-5_session-reset': ['idle', 'turn-finished'],
  // Irrlicht: back to ready. Lookout: the model refused the prompt (longer than its context), an error with its message.
  '1-8_model-context-display': ['error', 'api-error'],
  '2-1_basic-turn': ['idle', 'turn-finished'],
  '2-13_turn-end-terminal-text': ['idle', 'turn-finished'],
  // Irrlicht: back to ready. Lookout: the reply was cut at the model's length limit, an error to look at.
  '2-14_turn-aborted-by-error': ['error', 'api-error'],
  '2-2_auto-executed-tool-call': ['idle', 'turn-finished'],
  '2-21_streaming-partial-writes': ['idle', 'turn-finished'],
  '2-3_task-list': ['idle', 'turn-finished'],
  '2-4_self-correction-iteration': ['idle', 'turn-finished'],
  '2-5_synchronous-slash-command': ['idle', 'turn-finished'],
  '2-6_long-agentic-session-stress': ['idle', 'turn-finished'],
  '3-1_foreground-subagent': ['idle', 'turn-finished'],
  '4-1_multiple-sessions-same-cwd': ['idle', 'turn-finished'],
  // The step's patch part is written after its step-finish: the turn is over.
  '4-2_multiple-agents-same-workspace': ['idle', 'turn-finished'],
  '5-1_token-accounting': ['idle', 'turn-finished'],
  '5-2_model-identification': ['idle', 'turn-finished'],
  'regression-foreground-subagent': ['idle', 'turn-finished'],
};

describe.skipIf(!present)('opencode recordings (Irrlicht, real CLI runs), put back into a database', () => {
  const scenarios = present ? readdirSync(RECORDINGS).filter((name) => existsSync(join(RECORDINGS, name, 'recordings'))) : [];

  it.each(scenarios)('%s: its last state reads as expected', async (scenario) => {
    const folder = join(RECORDINGS, scenario, 'recordings');
    for (const recording of readdirSync(folder)) {
      const transcript = join(folder, recording, 'transcript.jsonl');
      if (!existsSync(transcript)) continue;
      const root = join(base, `${scenario}-${recording}`);
      const last = rebuild(transcript, root);
      const provider = new OpencodeProvider(root);
      const evidence = await provider.sync();
      provider.dispose();
      const now = last + 2000;
      const [row] = evaluate({ sessions: evidence, facts: emptyFacts(), settings: defaultSettings(), now, onScreen: null }).snapshot.sessions;
      const wanted = EXPECTED[scenario];
      // A recording not in the table (one added later) must still read as something definite.
      if (wanted === undefined) expect(row?.observed.state, `${scenario}/${recording}`).not.toBe('unknown');
      else expect([row?.observed.state, row?.observed.reason], `${scenario}/${recording}`).toEqual(wanted);
      expect(row?.cwd).toBe(JSON.parse(readFileSync(transcript, 'utf8').split('\n')[0] ?? '{}')._cwd);
    }
  });
});
