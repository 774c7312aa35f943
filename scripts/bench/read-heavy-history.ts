// The bench's second shape of history (issue 27): per 2,000 sessions, twenty Claude transcripts of
// 50 MB made of ~800-byte lines (a prompt, a `Read` call, a 600-byte result, over and over), 1,480
// Claude transcripts of 20–130 KB and 500 Codex rollouts of 20–68 KB, every one finished within
// the last ten minutes. Scaled by `sessions` with the same proportions (the slope's 500 and 8,000).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { History } from './synthetic-history';
import { codexTurn, writeSession } from './synthetic-history';

const KB = 1024;
const MB = 1024 * KB;
const RESULT = 'r'.repeat(600);
const PROMPT = 'Look at the parser again and tell me which branch drops the last line; ';

function readTurn(sessionId: string, at: number, turn: number): string[] {
  const ts = (offset: number) => new Date(at + offset).toISOString();
  const base = { isSidechain: false, userType: 'external', cwd: '/home/me/service', sessionId, version: '2.1.143', gitBranch: 'main' };
  return [
    JSON.stringify({
      ...base,
      parentUuid: `r${turn - 1}`,
      type: 'user',
      uuid: `u${turn}`,
      timestamp: ts(0),
      message: { role: 'user', content: `${PROMPT.repeat(6)}(${turn})` },
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
        model: 'claude-sonnet-4-5',
        content: [{ type: 'tool_use', id: `toolu_${turn}`, name: 'Read', input: { file_path: `/home/me/service/src/module${turn % 97}.ts` } }],
        stop_reason: 'tool_use',
        usage: { input_tokens: 1200, output_tokens: 80 },
      },
    }),
    JSON.stringify({
      ...base,
      parentUuid: `a${turn}`,
      type: 'user',
      uuid: `r${turn}`,
      timestamp: ts(2000),
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${turn}`, content: RESULT }] },
    }),
  ];
}

function readClosing(sessionId: string, at: number): string[] {
  const base = { isSidechain: false, userType: 'external', cwd: '/home/me/service', sessionId, version: '2.1.143', gitBranch: 'main' };
  return [
    JSON.stringify({
      ...base,
      parentUuid: 'last',
      type: 'assistant',
      uuid: 'done',
      timestamp: new Date(at).toISOString(),
      message: { id: 'mdone', role: 'assistant', content: [{ type: 'text', text: 'The last branch drops it; fixed.' }], stop_reason: 'end_turn' },
    }),
  ];
}

export function writeReadHeavyHistory(folder: string, sessions: number, now: number): History {
  const claudeRoot = join(folder, 'claude');
  const codexRoot = join(folder, 'codex');
  const giants = Math.max(1, Math.round((20 * sessions) / 2000));
  const codex = Math.round((500 * sessions) / 2000);
  const files: string[] = [];
  let bytes = 0;
  const pad = 'x'.repeat(1400);
  for (let index = 0; index < sessions; index += 1) {
    const hex = index.toString(16).padStart(12, '0');
    // Every session finished within the last ten minutes, one a second apart or so.
    const end = now - (index % 600) * 1000;
    if (index < sessions - codex) {
      const sessionId = `5eadbe00-0000-4000-8000-${hex}`;
      const project = join(claudeRoot, 'projects', `-home-me-service${index % 40}`);
      mkdirSync(project, { recursive: true });
      const path = join(project, `${sessionId}.jsonl`);
      const size = index < giants ? 50 * MB : (20 + ((index * 37) % 111)) * KB;
      bytes += writeSession(path, null, size, (at, turn) => readTurn(sessionId, at - 1000, turn), end - 1000, readClosing(sessionId, end));
      files.push(path);
    } else {
      const threadId = `019ebec0-0000-7000-9000-${hex}`;
      const day = join(codexRoot, 'sessions', '2026', '12', String(1 + (index % 28)).padStart(2, '0'));
      mkdirSync(day, { recursive: true });
      const path = join(day, `rollout-2026-12-01T00-00-00-${threadId}.jsonl`);
      const meta = JSON.stringify({
        timestamp: new Date(end - 600_000).toISOString(),
        type: 'session_meta',
        payload: { id: threadId, cwd: '/home/me/service', source: 'cli', git: { branch: 'main' }, base_instructions: { text: pad.repeat(10) } },
      });
      const size = (20 + ((index * 13) % 49)) * KB;
      bytes += writeSession(path, meta, size, codexTurn, end);
      files.push(path);
    }
  }
  return { claudeRoot, codexRoot, files, bytes };
}
