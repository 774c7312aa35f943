// Issue 24's agents for the bench, in the shapes the real agents wrote in the lab: Gemini CLI's
// chats, Qwen Code's projects, Cline CLI's session folders and Factory Droid's sessions; 20 turns a
// session, with a tool call and its result in each, as the Copilot sessions beside them.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from '@photostructure/sqlite';

const pad = 'x'.repeat(1200);
const hex = (index: number, width: number) => index.toString(16).padStart(width, '0');
const minutesAgo = (now: number, index: number) => now - (index % 600) * 60_000 - 60_000;

/** `<root>/tmp/<project>/chats/session-<time>-<id8>.jsonl` under Gemini CLI's `.gemini`, names in projects.json. */
export function geminiSessions(root: string, count: number, now: number): string[] {
  const chats = join(root, 'tmp', 'app', 'chats');
  mkdirSync(chats, { recursive: true });
  writeFileSync(join(root, 'projects.json'), JSON.stringify({ projects: { '/home/me/app': 'app' } }));
  const files: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const id = `9e000000-0000-4000-8000-${hex(index, 12)}`;
    const start = minutesAgo(now, index);
    const at = (offset: number) => new Date(start + offset).toISOString();
    const lines = [JSON.stringify({ sessionId: id, projectHash: 'f'.repeat(64), startTime: at(0), lastUpdated: at(0), kind: 'main' })];
    for (let turn = 0; turn < 20; turn += 1) {
      const t = turn * 2000;
      const answer = { id: `g-${turn}`, timestamp: at(t + 2), type: 'gemini', content: '', model: 'gemini-3.8-flash' };
      lines.push(
        JSON.stringify({ id: `u-${turn}`, timestamp: at(t + 1), type: 'user', content: [{ text: `turn ${turn}` }] }),
        JSON.stringify({ $set: { lastUpdated: at(t + 1) } }),
        JSON.stringify(answer),
        // The tool call is written once done: the same message again, by id, with its call.
        JSON.stringify({
          ...answer,
          toolCalls: [
            {
              id: `c${turn}`,
              name: 'run_shell_command',
              args: { command: 'npm test' },
              result: [{ functionResponse: { id: `c${turn}`, name: 'run_shell_command', response: { output: pad } } }],
              status: 'success',
              timestamp: at(t + 3),
            },
          ],
        }),
        JSON.stringify({ id: `g2-${turn}`, timestamp: at(t + 4), type: 'gemini', content: 'All green.', model: 'gemini-3.8-flash' }),
        JSON.stringify({ $set: { lastUpdated: at(t + 4) } }),
      );
    }
    const path = join(chats, `session-${new Date(start).toISOString().slice(0, 16).replace(':', '-')}-${id.slice(0, 8)}.jsonl`);
    writeFileSync(path, `${lines.join('\n')}\n`);
    files.push(path);
  }
  return files;
}

/** `<root>/projects/<cwd slug>/chats/<id>.jsonl` and its `<id>.runtime.json` under Qwen Code's `.qwen`. */
export function qwenSessions(root: string, count: number, now: number): string[] {
  const chats = join(root, 'projects', '-home-me-app', 'chats');
  mkdirSync(chats, { recursive: true });
  const files: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const id = `9c000000-0000-4000-8000-${hex(index, 12)}`;
    const start = minutesAgo(now, index);
    let parent: string | null = null;
    let serial = 0;
    const line = (offset: number, type: string, body: object) => {
      serial += 1;
      const uuid = `${id.slice(0, 24)}${hex(serial, 12)}`;
      const text = JSON.stringify({
        uuid,
        parentUuid: parent,
        sessionId: id,
        timestamp: new Date(start + offset).toISOString(),
        type,
        cwd: '/home/me/app',
        version: '0.24.4',
        ...body,
      });
      parent = uuid;
      return text;
    };
    const lines: string[] = [];
    for (let turn = 0; turn < 20; turn += 1) {
      const t = turn * 2000;
      lines.push(
        line(t + 1, 'user', { provenance: 'real_user', message: { role: 'user', parts: [{ text: `turn ${turn}` }] } }),
        line(t + 2, 'assistant', {
          provenance: 'assistant_output',
          message: { role: 'model', parts: [{ functionCall: { id: `c${turn}`, name: 'run_shell_command', args: { command: 'npm test' } } }] },
        }),
        line(t + 3, 'tool_result', {
          provenance: 'tool',
          message: { role: 'user', parts: [{ functionResponse: { id: `c${turn}`, name: 'run_shell_command', response: { output: pad } } }] },
        }),
        line(t + 4, 'assistant', { provenance: 'assistant_output', message: { role: 'model', parts: [{ text: 'All green.' }] } }),
      );
    }
    const path = join(chats, `${id}.jsonl`);
    writeFileSync(path, `${lines.join('\n')}\n`);
    // Left behind by a process long gone, as after /quit: the reader must check the pid.
    const runtime = join(chats, `${id}.runtime.json`);
    writeFileSync(
      runtime,
      JSON.stringify({
        schema_version: 1,
        pid: 4_000_000 + index,
        session_id: id,
        work_dir: '/home/me/app',
        hostname: 'bench',
        started_at: start / 1000,
        qwen_version: '0.24.4',
      }),
    );
    files.push(path, runtime);
  }
  return files;
}

// As `cline` 3.0.65 creates it (db/sessions.db): the CLI's primary store, the one Lookout reads.
const CLINE_SESSIONS = `CREATE TABLE sessions (session_id TEXT PRIMARY KEY, source TEXT NOT NULL, pid INTEGER NOT NULL, started_at TEXT NOT NULL, ended_at TEXT,
  exit_code INTEGER, status TEXT NOT NULL, status_lock INTEGER NOT NULL DEFAULT 0, interactive INTEGER NOT NULL, provider TEXT NOT NULL, model TEXT NOT NULL,
  cwd TEXT NOT NULL, workspace_root TEXT NOT NULL, team_name TEXT, enable_tools INTEGER NOT NULL, enable_spawn INTEGER NOT NULL, enable_teams INTEGER NOT NULL,
  parent_session_id TEXT, parent_agent_id TEXT, agent_id TEXT, conversation_id TEXT, is_subagent INTEGER NOT NULL DEFAULT 0, prompt TEXT, metadata_json TEXT,
  transcript_path TEXT NOT NULL DEFAULT '', hook_path TEXT NOT NULL, messages_path TEXT, updated_at TEXT NOT NULL)`;

/**
 * Cline CLI's data folder (`~/.cline/data`): `db/sessions.db`, and per session `sessions/<id>/<id>.json`
 * (the manifest) and `<id>.messages.json`. Returns the database (the floor queries it) and the messages files.
 */
export function clineSessions(root: string, count: number, now: number): string[] {
  mkdirSync(join(root, 'db'), { recursive: true });
  const db = new DatabaseSync(join(root, 'db', 'sessions.db'));
  db.exec(`PRAGMA journal_mode=WAL; ${CLINE_SESSIONS}`);
  const insert =
    db.prepare(`INSERT INTO sessions (session_id, source, pid, started_at, ended_at, exit_code, status, interactive, provider, model, cwd, workspace_root,
    enable_tools, enable_spawn, enable_teams, is_subagent, prompt, metadata_json, hook_path, messages_path, updated_at)
    VALUES (?, 'cli', ?, ?, ?, 0, 'completed', 0, 'openai-compatible', 'fake-model', '/home/me/app', '/home/me/app', 1, 1, 1, 0, 'turn 0', ?, '', ?, ?)`);
  db.exec('BEGIN');
  const files: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const start = minutesAgo(now, index);
    const id = `${Math.floor(start)}_b${hex(index, 4)}`;
    const folder = join(root, 'sessions', id);
    mkdirSync(folder, { recursive: true });
    const messages: object[] = [];
    for (let turn = 0; turn < 20; turn += 1) {
      const t = start + turn * 2000;
      messages.push(
        { id: `m${turn}u`, role: 'user', content: [{ type: 'text', text: `<user_input mode="act">turn ${turn}</user_input>` }], ts: t + 1 },
        {
          id: `m${turn}a`,
          role: 'assistant',
          content: [{ type: 'tool_use', id: `c${turn}`, name: 'run_commands', input: { commands: 'npm test' } }],
          ts: t + 2,
        },
        {
          id: `m${turn}r`,
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: `c${turn}`, name: 'run_commands', content: [{ query: 'npm test', result: pad, success: true }] }],
          ts: t + 3,
        },
        { id: `m${turn}t`, role: 'assistant', content: [{ type: 'text', text: 'All green.' }], ts: t + 4 },
      );
    }
    const ended = new Date(start + 40_000).toISOString();
    const manifest = join(folder, `${id}.json`);
    const transcript = join(folder, `${id}.messages.json`);
    writeFileSync(
      manifest,
      JSON.stringify({
        version: 1,
        session_id: id,
        source: 'cli',
        pid: 4_000_000 + index,
        started_at: new Date(start).toISOString(),
        ended_at: ended,
        exit_code: 0,
        status: 'completed',
        interactive: false,
        provider: 'openai-compatible',
        model: 'fake-model',
        cwd: '/home/me/app',
        workspace_root: '/home/me/app',
        prompt: 'turn 0',
        metadata: { title: `Bench session ${index}` },
        messages_path: transcript,
      }),
    );
    writeFileSync(transcript, JSON.stringify({ version: 1, updated_at: ended, agent: 'lead', sessionId: id, messages }));
    insert.run(id, 4_000_000 + index, new Date(start).toISOString(), ended, JSON.stringify({ title: `Bench session ${index}` }), transcript, ended);
    files.push(transcript);
  }
  db.exec('COMMIT');
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  db.close();
  return files;
}

/** `<root>/sessions/<cwd slug>/<uuid>.jsonl` and its settings under Factory Droid's `.factory`. */
export function droidSessions(root: string, count: number, now: number): string[] {
  const folder = join(root, 'sessions', '-home-me-app');
  mkdirSync(folder, { recursive: true });
  const files: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const id = `d0000000-0000-4000-8000-${hex(index, 12)}`;
    const start = minutesAgo(now, index);
    const at = (offset: number) => new Date(start + offset).toISOString();
    const lines = [JSON.stringify({ type: 'session_start', id, title: `Bench session ${index}`, owner: 'me', version: 2, cwd: '/home/me/app' })];
    for (let turn = 0; turn < 20; turn += 1) {
      const t = turn * 2000;
      const message = (suffix: string, offset: number, role: string, content: object[]) =>
        JSON.stringify({ type: 'message', id: `${turn}-${suffix}`, timestamp: at(t + offset), message: { role, content } });
      lines.push(
        message('u', 1, 'user', [{ type: 'text', text: `turn ${turn}` }]),
        message('a', 2, 'assistant', [{ type: 'tool_use', id: `c${turn}`, name: 'Execute', input: { command: 'npm test' } }]),
        message('r', 3, 'user', [{ type: 'tool_result', tool_use_id: `c${turn}`, content: pad }]),
        message('t', 4, 'assistant', [{ type: 'text', text: 'All green.' }]),
        JSON.stringify({ type: 'agent_turn_outcome', turnId: `${turn}-u`, reason: 'completed', resultKind: 'text' }),
      );
    }
    const path = join(folder, `${id}.jsonl`);
    writeFileSync(path, `${lines.join('\n')}\n`);
    const settings = join(folder, `${id}.settings.json`);
    writeFileSync(settings, JSON.stringify({ model: 'custom:fake-model', autonomyLevel: 'low' }));
    files.push(path, settings);
  }
  return files;
}

/** Pi: sessions/--home-me-app--/<time>_<uuid>.jsonl, twenty finished turns each (a call, its result, the answer). */
export function piSessions(root: string, count: number, now: number): string[] {
  const folder = join(root, 'sessions', '--home-me-app--');
  mkdirSync(folder, { recursive: true });
  const files: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const id = `01a244aa-0000-7000-8000-${hex(index, 12)}`;
    const start = minutesAgo(now, index);
    const at = (offset: number) => new Date(start + offset).toISOString();
    const lines = [JSON.stringify({ type: 'session', version: 3, id, timestamp: at(0), cwd: '/home/me/app' })];
    let parent: string | null = null;
    const entry = (key: string, offset: number, message: object) => {
      const line = JSON.stringify({ type: 'message', id: key, parentId: parent, timestamp: at(offset), message });
      parent = key;
      return line;
    };
    for (let turn = 0; turn < 20; turn += 1) {
      const t = turn * 2000;
      lines.push(
        entry(`${hex(turn, 4)}0001`, t + 1, { role: 'user', content: [{ type: 'text', text: `turn ${turn}` }] }),
        entry(`${hex(turn, 4)}0002`, t + 2, {
          role: 'assistant',
          content: [{ type: 'toolCall', id: `c${turn}`, name: 'bash', arguments: { command: 'npm test' } }],
          stopReason: 'toolUse',
        }),
        entry(`${hex(turn, 4)}0003`, t + 3, {
          role: 'toolResult',
          toolCallId: `c${turn}`,
          toolName: 'bash',
          content: [{ type: 'text', text: pad }],
          isError: false,
        }),
        entry(`${hex(turn, 4)}0004`, t + 4, { role: 'assistant', content: [{ type: 'text', text: 'All green.' }], stopReason: 'stop' }),
      );
    }
    const path = join(folder, `2026-12-01T00-00-00-000Z_${id}.jsonl`);
    writeFileSync(path, `${lines.join('\n')}\n`);
    files.push(path);
  }
  return files;
}
