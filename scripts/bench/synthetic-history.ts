// Writes a synthetic agent history in the real on-disk shapes: N sessions across Claude and
// Codex, some single files of 50 MB and more, about `totalBytes` in all.
import { closeSync, fsyncSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export interface HistoryPlan {
  sessions: number;
  totalBytes: number;
  giantFiles: number;
  giantBytes: number;
}

export interface History {
  claudeRoot: string;
  codexRoot: string;
  files: string[];
  bytes: number;
}

const PAD = 'x'.repeat(1400);

export function claudeTurn(sessionId: string, at: number, turn: number): string[] {
  const ts = (offset: number) => new Date(at + offset).toISOString();
  const base = { isSidechain: false, userType: 'external', cwd: '/home/me/app', sessionId, version: '2.1.143', gitBranch: 'main' };
  return [
    JSON.stringify({
      ...base,
      parentUuid: null,
      type: 'user',
      uuid: `u${turn}`,
      timestamp: ts(0),
      message: { role: 'user', content: `turn ${turn}: fix the tests` },
    }),
    JSON.stringify({
      ...base,
      parentUuid: `u${turn}`,
      type: 'assistant',
      uuid: `a${turn}`,
      timestamp: ts(1000),
      message: {
        id: `m${turn}`,
        role: 'assistant',
        content: [{ type: 'tool_use', id: `t${turn}`, name: 'Bash', input: { command: 'npm test' } }],
        stop_reason: 'tool_use',
      },
    }),
    JSON.stringify({
      ...base,
      parentUuid: `a${turn}`,
      type: 'user',
      uuid: `r${turn}`,
      timestamp: ts(2000),
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${turn}`, content: PAD }] },
    }),
    JSON.stringify({
      ...base,
      parentUuid: `r${turn}`,
      type: 'assistant',
      uuid: `e${turn}`,
      timestamp: ts(3000),
      message: { id: `n${turn}`, role: 'assistant', content: [{ type: 'text', text: 'All green.' }], stop_reason: 'end_turn' },
    }),
  ];
}

export function codexTurn(at: number, turn: number): string[] {
  const ts = (offset: number) => new Date(at + offset).toISOString();
  const line = (offset: number, type: string, payload: object) => JSON.stringify({ timestamp: ts(offset), type, payload });
  return [
    line(0, 'event_msg', { type: 'task_started', turn_id: `t${turn}` }),
    line(0, 'turn_context', { turn_id: `t${turn}`, cwd: '/home/me/app', approval_policy: 'on-request' }),
    line(0, 'event_msg', { type: 'user_message', message: `turn ${turn}: fix the tests` }),
    line(1000, 'response_item', { type: 'function_call', name: 'exec_command', arguments: '{"cmd":"npm test"}', call_id: `c${turn}` }),
    line(2000, 'response_item', { type: 'function_call_output', call_id: `c${turn}`, output: PAD }),
    line(3000, 'event_msg', { type: 'agent_message', message: 'All green.' }),
    line(3000, 'event_msg', { type: 'task_complete', turn_id: `t${turn}`, duration_ms: 3000 }),
  ];
}

/** Appends whole turns until the file reaches `bytes`; the last turn is the newest, then `closing`. */
export function writeSession(
  path: string,
  header: string | null,
  bytes: number,
  makeTurn: (at: number, turn: number) => string[],
  end: number,
  closing: string[] = [],
): number {
  const fd = openSync(path, 'w');
  let written = 0;
  const put = (text: string) => {
    written += writeSync(fd, text);
  };
  if (header !== null) put(`${header}\n`);
  const sample = `${makeTurn(end, 0).join('\n')}\n`.length;
  const turns = Math.max(1, Math.ceil(bytes / sample));
  let chunk: string[] = [];
  for (let turn = 0; turn < turns; turn += 1) {
    chunk.push(...makeTurn(end - (turns - turn) * 10_000, turn));
    if (chunk.length > 2000) {
      put(`${chunk.join('\n')}\n`);
      chunk = [];
    }
  }
  chunk.push(...closing);
  if (chunk.length > 0) put(`${chunk.join('\n')}\n`);
  // On disk before anything is timed: the kernel's background writeback of a fresh gigabyte would
  // otherwise compete with the measured processes.
  fsyncSync(fd);
  closeSync(fd);
  return written;
}

export function writeHistory(folder: string, plan: HistoryPlan, now: number): History {
  const claudeRoot = join(folder, 'claude');
  const codexRoot = join(folder, 'codex');
  const files: string[] = [];
  let bytes = 0;
  const normalBytes = Math.max(8 * 1024, Math.floor((plan.totalBytes - plan.giantFiles * plan.giantBytes) / Math.max(1, plan.sessions - plan.giantFiles)));
  for (let index = 0; index < plan.sessions; index += 1) {
    const size = index < plan.giantFiles ? plan.giantBytes : normalBytes;
    const end = now - (index % 600) * 60_000;
    const hex = index.toString(16).padStart(12, '0');
    if (index % 2 === 0) {
      const sessionId = `bec1a000-0000-4000-8000-${hex}`;
      const project = join(claudeRoot, 'projects', `-home-me-app${index % 40}`);
      mkdirSync(project, { recursive: true });
      const path = join(project, `${sessionId}.jsonl`);
      bytes += writeSession(path, null, size, (at, turn) => claudeTurn(sessionId, at, turn), end);
      files.push(path);
    } else {
      const threadId = `019ebec0-0000-7000-8000-${hex}`;
      const day = join(codexRoot, 'sessions', '2026', '11', String(1 + (index % 28)).padStart(2, '0'));
      mkdirSync(day, { recursive: true });
      const path = join(day, `rollout-2026-11-01T00-00-00-${threadId}.jsonl`);
      const meta = JSON.stringify({
        timestamp: new Date(end - 3_600_000).toISOString(),
        type: 'session_meta',
        payload: { id: threadId, cwd: '/home/me/app', source: 'cli', git: { branch: 'main' }, base_instructions: { text: PAD.repeat(20) } },
      });
      bytes += writeSession(path, meta, size, codexTurn, end);
      files.push(path);
    }
  }
  return { claudeRoot, codexRoot, files, bytes };
}
