// The kinds of record a scenario's agent wrote ("event_msg/task_complete", "assistant",
// "part:tool"), so `npm run lab:latest` can say which ones a newer version writes that the
// pinned one did not (test/live/known-records.json): a format change seen the week it ships.
import { appendFileSync, existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from '@photostructure/sqlite';
import type { Scenario } from './scenario';
import { LAB_MODULES } from './scenario';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

function jsonlFiles(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.jsonl'))
    .map((name) => join(folder, name));
}

/** A JSONL record's kind: its type, with the payload's or subtype's type where it has one. */
function lineKind(record: Json): string | null {
  const type = typeof record.type === 'string' ? record.type : null;
  if (type === null) return null;
  const inner = isObject(record.payload) ? record.payload.type : record.subtype;
  return typeof inner === 'string' ? `${type}/${inner}` : type;
}

/** Pi's kind: a message entry by its role ("message/toolResult"), any other entry by its type. */
function piLineKind(record: Json): string | null {
  const type = typeof record.type === 'string' ? record.type : null;
  return type === 'message' && isObject(record.message) ? `message/${String(record.message.role)}` : type;
}

function jsonlKinds(folder: string, kindOf: (record: Json) => string | null = lineKind): string[] {
  const kinds = new Set<string>();
  for (const file of jsonlFiles(folder)) {
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      try {
        const parsed: unknown = JSON.parse(line);
        const kind = isObject(parsed) ? kindOf(parsed) : null;
        if (kind !== null) kinds.add(kind);
      } catch {
        kinds.add('(not JSON)');
      }
    }
  }
  return [...kinds];
}

/** opencode's database: each message's role and each part's type. */
function databaseKinds(path: string): string[] {
  if (!existsSync(path)) return [];
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    const kinds = new Set<string>();
    for (const row of db.prepare("SELECT DISTINCT json_extract(data, '$.role') AS kind FROM message").all()) kinds.add(`message:${String(row.kind)}`);
    for (const row of db.prepare("SELECT DISTINCT json_extract(data, '$.type') AS kind FROM part").all()) kinds.add(`part:${String(row.kind)}`);
    return [...kinds];
  } finally {
    db.close();
  }
}

/** Cline CLI: each saved message's role and block types ("assistant/tool_use"), each session status ("status:idle"). */
function clineKinds(data: string): string[] {
  const kinds = new Set<string>();
  const sessions = join(data, 'sessions');
  const files = existsSync(sessions) ? readdirSync(sessions, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.messages.json')) : [];
  for (const file of files) {
    const saved: unknown = JSON.parse(readFileSync(join(sessions, file), 'utf8'));
    for (const message of isObject(saved) && Array.isArray(saved.messages) ? saved.messages : []) {
      if (!isObject(message)) continue;
      const role =
        isObject(message.metadata) && typeof message.metadata.displayRole === 'string'
          ? `${String(message.role)}(${message.metadata.displayRole})`
          : String(message.role);
      for (const block of Array.isArray(message.content) ? message.content : []) kinds.add(`${role}/${isObject(block) ? String(block.type) : '?'}`);
    }
  }
  const path = join(data, 'db', 'sessions.db');
  if (existsSync(path)) {
    const db = new DatabaseSync(path, { readOnly: true });
    try {
      for (const row of db.prepare('SELECT DISTINCT status FROM sessions').all()) kinds.add(`status:${String(row.status)}`);
    } finally {
      db.close();
    }
  }
  return [...kinds];
}

export function recordKinds(lab: Scenario): string[] {
  const home = lab.home.home;
  switch (lab.agent.id) {
    case 'claude':
      return jsonlKinds(join(home, '.claude', 'projects')).sort();
    case 'codex':
      return jsonlKinds(join(home, '.codex', 'sessions')).sort();
    case 'copilot':
      return jsonlKinds(join(home, '.copilot', 'session-state')).sort();
    case 'opencode':
      return databaseKinds(join(home, '.local', 'share', 'opencode', 'opencode.db')).sort();
    case 'kilo':
      return databaseKinds(join(home, '.local', 'share', 'kilo', 'kilo.db')).sort();
    case 'cline':
      return clineKinds(join(home, '.cline', 'data')).sort();
    case 'gemini':
      return jsonlKinds(join(home, '.gemini', 'tmp')).sort();
    case 'droid':
      return jsonlKinds(join(home, '.factory', 'sessions')).sort();
    case 'qwen':
      return jsonlKinds(join(home, '.qwen', 'projects')).sort();
    case 'pi':
      return jsonlKinds(join(home, '.pi', 'agent', 'sessions'), piLineKind).sort();
    default:
      return [];
  }
}

/** Appends this scenario's kinds to the file LOOKOUT_LAB_INVENTORY names, if any. */
export function noteInventory(lab: Scenario): void {
  const file = process.env.LOOKOUT_LAB_INVENTORY;
  if (file === undefined || file === '') return;
  appendFileSync(
    file,
    `${JSON.stringify({ agent: lab.agent.id, version: lab.agent.version(LAB_MODULES), scenario: lab.options.name, kinds: recordKinds(lab) })}\n`,
  );
}
