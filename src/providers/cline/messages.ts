// Folds a Cline CLI `<id>.messages.json` (rewritten whole by the agent: `{updated_at, agent,
// sessionId, messages:[{id, role, content:[text|tool_use|tool_result], ts, metadata?}]}`) into
// the facts the engine reads: the last status-bearing message as a signal, the turn, the calls
// still pending, the first prompt. No statuses here; the manifest's status is read apart.
import type { PendingTool, TranscriptSignal, TurnEvidence } from '../../engine';
import type { JsonRecord } from '../jsonl/parse-record';
import { arr, num, obj, oneLine, str, time } from '../jsonl/parse-record';

export interface MessagesFacts {
  /** The file's own `updated_at`: when the agent last saved the messages (after an abort too). */
  savedAt: number | null;
  /** The newest message's time, or the save time. */
  lastAt: number | null;
  signal: TranscriptSignal | null;
  turn: TurnEvidence | null;
  /** The newest message that answers a request: a tool result or a new prompt (R8). */
  answeredAt: number | null;
  firstPrompt: string | null;
  /** Messages kept: none means the session has not been used yet. */
  count: number;
}

export const NO_MESSAGES: MessagesFacts = { savedAt: null, lastAt: null, signal: null, turn: null, answeredAt: null, firstPrompt: null, count: 0 };

/** The CLI wraps what the user typed: `<user_input mode="act">…</user_input>`. */
const USER_INPUT = /^\s*<user_input(?:\s[^>]*)?>([\s\S]*?)<\/user_input>\s*$/;

/** What the user typed, without the CLI's wrapper. */
export function promptText(text: string): string {
  return USER_INPUT.exec(text)?.[1] ?? text;
}

/** The question tool waits for the user's answer; spawning an agent is work, not a request (R3). */
function category(name: string): PendingTool['category'] {
  switch (name) {
    case 'ask_question':
    case 'ask_followup_question':
      return 'question';
    case 'spawn_agent':
      return 'subagent';
    default:
      return 'generic';
  }
}

/** The subject of a call in words: "run_commands: npm test", "asks: Which database?". */
function callDetail(name: string, input: JsonRecord | null): string {
  const question = str(input?.question);
  if (category(name) === 'question') return question === null ? 'asks a question' : `asks: ${oneLine(question, 100)}`;
  const commands = input?.commands;
  const command =
    str(commands) ??
    arr(commands)
      .filter((item): item is string => typeof item === 'string')
      .join('; ');
  const subject =
    (command === '' ? null : command) ??
    str(input?.command) ??
    str(input?.path) ??
    str(input?.file_path) ??
    str(input?.task) ??
    str(input?.pattern) ??
    str(input?.url);
  return subject === null ? name : `${name}: ${oneLine(subject, 80)}`;
}

/** The display text of a message: its text blocks, joined. */
function textOf(content: readonly unknown[]): string {
  return content
    .map((block) => obj(block))
    .filter((block) => block?.type === 'text')
    .map((block) => str(block?.text) ?? '')
    .join(' ');
}

/** A message's own time: its `ts` (epoch ms; an ISO time is read too), never a file's (R2). */
function timeOf(message: JsonRecord): number | null {
  return num(message.ts) ?? time(message.ts);
}

export function foldMessages(file: JsonRecord): MessagesFacts {
  const savedAt = time(file.updated_at);
  const pending = new Map<string, PendingTool>();
  let signal: TranscriptSignal | null = null;
  let turn: TurnEvidence | null = null;
  let answeredAt: number | null = null;
  let firstPrompt: string | null = null;
  let lastAt: number | null = null;
  let count = 0;
  const callSignal = (at: number): TranscriptSignal => ({ kind: 'tool-call', at, pending: [...pending.values()], approvalPolicy: null });
  const endTurn = (at: number): void => {
    if (turn !== null) turn = { ...turn, endedAt: at };
  };
  for (const item of arr(file.messages)) {
    const message = obj(item);
    const at = message === null ? null : timeOf(message);
    if (message === null || at === null) continue;
    count += 1;
    lastAt = Math.max(lastAt ?? at, at);
    const content = arr(message.content);
    const blocks = content.map((block) => obj(block)).filter((block): block is JsonRecord => block !== null);
    if (message.role === 'user') {
      const results = blocks.filter((block) => block.type === 'tool_result');
      if (results.length > 0) {
        for (const result of results) pending.delete(str(result.tool_use_id) ?? '');
        answeredAt = at;
        signal = pending.size > 0 ? callSignal(at) : { kind: 'tool-result', at };
        continue;
      }
      // A prompt (the lead's typed text, or the task a subagent was given) opens a turn.
      const text = promptText(textOf(content)).trim();
      firstPrompt ??= text === '' ? null : oneLine(text);
      pending.clear();
      answeredAt = at;
      turn = { startedAt: at, endedAt: null, durationMs: null };
      signal = { kind: 'prompt', at };
      continue;
    }
    if (message.role !== 'assistant') continue;
    // The CLI keeps a failed request as a message shown as an error (`metadata.displayRole`).
    if (obj(message.metadata)?.displayRole === 'error') {
      pending.clear();
      signal = { kind: 'api-error', at, detail: oneLine(textOf(content)) || null };
      endTurn(at);
      continue;
    }
    const calls = blocks.filter((block) => block.type === 'tool_use');
    for (const call of calls) {
      const id = str(call.id) ?? `call-${at}-${pending.size}`;
      const name = str(call.name) ?? 'tool';
      pending.set(id, { id, name, detail: callDetail(name, obj(call.input)), category: category(name), escalation: false });
    }
    if (calls.length > 0) {
      signal = callSignal(at);
    } else if (textOf(content).trim() !== '') {
      // The agent's loop ends on a reply without tool calls: the turn's answer.
      signal = { kind: 'assistant-text', at, stop: 'end' };
      endTurn(at);
    } else if (pending.size === 0) {
      signal = { kind: 'progress', at };
    }
  }
  return { savedAt, lastAt: lastAt ?? savedAt, signal, turn, answeredAt, firstPrompt, count };
}
