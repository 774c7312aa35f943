// Folds Claude Code transcript records, in file order, into the facts §11 asks for: the last
// status-bearing record, pending tool calls, the turn, title, cwd and branch. No statuses here.
import type { PendingTool, TranscriptSignal, TurnEvidence } from '../../engine';
import type { JsonRecord } from '../jsonl/parse-record';
import { arr, num, obj, oneLine, str, time } from '../jsonl/parse-record';
import { toolCategory, toolDetail } from './tools';
import { claudeUsageLimit, isLimitResetContinuation } from './usage-limit';

const LOCAL_COMMAND_PREFIXES = ['<command-name>', '<local-command-stdout>', '<local-command-stderr>', '<local-command-caveat>'];
const TERMINAL_STOPS = new Set(['end_turn', 'stop_sequence', 'max_tokens', 'refusal']);
const INTERRUPT_PREFIX = '[Request interrupted by user';

/** A user record's content as text blocks (a string content is one text block). */
function contentBlocks(record: JsonRecord): JsonRecord[] {
  const content = obj(record.message)?.content;
  return typeof content === 'string'
    ? [{ type: 'text', text: content }]
    : arr(content)
        .map(obj)
        .filter((block): block is JsonRecord => block !== null);
}

type UserRecordKind = 'ignored' | 'tool-result' | 'interrupt' | 'prompt';

/** What a user record is, for §11: meta, compaction and local-command echoes change nothing. */
function userRecordKind(record: JsonRecord): { kind: UserRecordKind; blocks: JsonRecord[]; text: string } {
  const blocks = contentBlocks(record);
  if (record.isMeta === true || record.isCompactSummary === true) return { kind: 'ignored', blocks, text: '' };
  if (blocks.some((block) => block.type === 'tool_result')) return { kind: 'tool-result', blocks, text: '' };
  const text = blocks
    .map((block) => str(block.text) ?? '')
    .join('\n')
    .trim();
  if (LOCAL_COMMAND_PREFIXES.some((prefix) => text.startsWith(prefix))) return { kind: 'ignored', blocks, text };
  if (text.startsWith(INTERRUPT_PREFIX)) return { kind: 'interrupt', blocks, text };
  return { kind: 'prompt', blocks, text };
}

/** A real prompt (or task notification) of the lead: it opens the turn that decides the state. */
export function opensClaudeTurn(record: JsonRecord): boolean {
  return record.type === 'user' && record.isSidechain !== true && time(record.timestamp) !== null && userRecordKind(record).kind === 'prompt';
}

/** Title records say so in their first fields (`start`: a line's first characters: 200 in a tail, LINE_START in a middle). */
export function isTitleLine(start: string): boolean {
  return start.includes('title"') || start.includes('"type":"summary"');
}

/** isTitleLine's markers and a 1.x inline sidechain's, in one search (three searches a line were a cold read's 37 ms over 10,000 transcripts, issue 51). */
const TITLE_OR_SIDECHAIN = /title"|"type":"summary"|"isSidechain":true/;

/** Title records and 1.x inline sidechains say so in their first fields. */
function isTitleOrSidechain(line: string): boolean {
  return TITLE_OR_SIDECHAIN.test(line.slice(0, 200));
}

export interface Titles {
  customTitle: string | null;
  summaryTitle: string | null;
}

/** §11: a custom title (/rename) replaces the last, an AI title too; a summary only where none was. */
export function applyTitleRecord(titles: Titles, record: JsonRecord): void {
  const type = str(record.type);
  if (type === 'custom-title') titles.customTitle = str(record.customTitle) ?? titles.customTitle;
  else if (type === 'ai-title') titles.summaryTitle = str(record.aiTitle) ?? str(record.title) ?? titles.summaryTitle;
  else if (type === 'summary' && titles.summaryTitle === null) titles.summaryTitle = str(record.summary);
}

/** A user record that is not a tool result: a prompt, an interrupt marker, an echo (a tool result carries `"tool_result"` with bare quotes; in text they are escaped). */
function isUserText(line: string): boolean {
  return line.includes('"type":"user"') && !line.includes('"tool_result"');
}

/**
 * Lines before the turn that still matter: titles and sidechains always; earlier prompts and
 * interrupt markers when the window holds an interrupt (so its turn's children stay dropped,
 * R12) or reaches the file's start (so the first prompt names the session).
 */
export function claudeKeptBefore(lines: readonly string[], end: number, wholeFile: boolean): number[] {
  let prompts = wholeFile;
  for (let index = 0; index < end && !prompts; index += 1) prompts = (lines[index] ?? '').includes(INTERRUPT_PREFIX);
  const kept: number[] = [];
  for (let index = 0; index < end; index += 1) {
    const line = lines[index] ?? '';
    if (isTitleOrSidechain(line) || (prompts && isUserText(line))) kept.push(index);
  }
  return kept;
}

/** The calls left open after a result that ask the user (a question, a plan), as the signal they keep; null when none. */
export function stillAsking(pending: Iterable<PendingTool & { at: number }>): Extract<TranscriptSignal, { kind: 'tool-call' }> | null {
  const asking = [...pending].filter((tool) => tool.category === 'question' || tool.category === 'plan');
  return asking.length > 0 ? { kind: 'tool-call', at: Math.max(...asking.map((tool) => tool.at)), pending: asking, approvalPolicy: null } : null;
}

export class ClaudeTranscript implements Titles {
  sessionId: string | null = null;
  cwd: string | null = null;
  branch: string | null = null;
  customTitle: string | null = null;
  summaryTitle: string | null = null;
  firstPrompt: string | null = null;
  firstAt: number | null = null;
  lastRecordAt: number | null = null;
  signal: TranscriptSignal | null = null;
  turn: TurnEvidence | null = null;
  agentId: string | null = null;
  /** The newest record that answers a request: a tool result, an interrupt, a prompt (R8). */
  answeredAt: number | null = null;
  /** The calls left open, made at the first call: most readings hold none, and an empty Map is ~190 bytes a reading (issue 51). */
  private calls: Map<string, PendingTool & { at: number }> | null = null;
  /** Turns the user interrupted, newest last (R12 keeps their children dropped). */
  readonly interruptedTurns: { startedAt: number; endedAt: number }[] = [];
  /** The turn's API error; a usage limit keeps its own signal through the turn's end (R80). */
  private lastAssistantApiError: { detail: string | null; limit: Extract<TranscriptSignal, { kind: 'usage-limit' }> | null } | null = null;

  /** Whether a status-bearing record has been seen (the cold read may stop looking further back). */
  get settled(): boolean {
    return this.signal !== null && this.turn !== null;
  }

  /** The head gave the session's identity and its first prompt (the fallback title). */
  get headDone(): boolean {
    return this.sessionId !== null && this.firstAt !== null && this.firstPrompt !== null;
  }

  get title(): string | null {
    return this.customTitle ?? this.summaryTitle ?? this.firstPrompt;
  }

  opensTurn(record: JsonRecord): boolean {
    return record.type === 'user' && time(record.timestamp) !== null && userRecordKind(record).kind === 'prompt';
  }

  keptBefore(lines: readonly string[], end: number, wholeFile: boolean): number[] {
    return claudeKeptBefore(lines, end, wholeFile);
  }

  apply(record: JsonRecord): void {
    const type = str(record.type);
    const at = time(record.timestamp);
    applyTitleRecord(this, record);
    if (type !== 'user' && type !== 'assistant' && type !== 'system') return;
    if (at !== null) {
      if (this.firstAt === null) this.firstAt = at;
      if (this.lastRecordAt === null || at > this.lastRecordAt) this.lastRecordAt = at;
    }
    // The newest record names the session: a fork may begin with history copied from its parent.
    this.sessionId = str(record.sessionId) ?? this.sessionId;
    this.agentId ??= str(record.agentId);
    this.cwd = str(record.cwd) ?? this.cwd;
    this.branch = str(record.gitBranch) ?? this.branch;
    if (at === null) return; // a status-bearing record without its own time cannot date a state
    if (type === 'user') this.applyUser(record, at);
    else if (type === 'assistant') this.applyAssistant(record, at);
    else this.applySystem(record, at);
  }

  private applyUser(record: JsonRecord, at: number): void {
    const { kind, blocks, text } = userRecordKind(record);
    if (kind === 'ignored') {
      // At the reset Claude goes on by itself with a meta prompt: the limit has lifted, a turn runs.
      if (isLimitResetContinuation(record, blocks.map((block) => str(block.text) ?? '').join('\n'))) this.openTurn(at);
      return;
    }
    if (kind === 'tool-result') {
      for (const block of blocks) {
        const id = block.type === 'tool_result' ? str(block.tool_use_id) : null;
        if (id !== null) this.calls?.delete(id);
      }
      // A question or plan still open after a parallel call's result keeps waiting on the user.
      const asking = stillAsking(this.calls?.values() ?? []);
      this.signal = asking ?? { kind: 'tool-result', at };
      // A result answers a request only when nothing that asks the user is left open.
      if (asking === null) this.answered(at);
      return;
    }
    if (kind === 'interrupt') {
      if (this.turn !== null) {
        this.interruptedTurns.push({ startedAt: this.turn.startedAt, endedAt: at });
        if (this.interruptedTurns.length > 5) this.interruptedTurns.shift();
      }
      this.calls = null;
      this.answered(at);
      this.signal = { kind: 'interrupted', at };
      this.closeTurn(at, null);
      return;
    }
    // A real prompt (or a task notification, which opens a turn but never names the session).
    const notification = obj(record.origin)?.kind === 'task-notification' || text.startsWith('<task-notification>');
    if (!notification && this.firstPrompt === null && text !== '') this.firstPrompt = oneLine(text, 100);
    this.answered(at);
    this.openTurn(at);
  }

  private openTurn(at: number): void {
    this.calls = null;
    this.lastAssistantApiError = null;
    this.signal = { kind: 'prompt', at };
    this.turn = { startedAt: at, endedAt: null, durationMs: null };
  }

  private applyAssistant(record: JsonRecord, at: number): void {
    const message = obj(record.message);
    if (record.isApiErrorMessage === true) {
      const text = arr(message?.content)
        .map(obj)
        .map((block) => str(block?.text) ?? '')
        .join(' ');
      const detail = text === '' ? str(record.error) : oneLine(text, 100);
      const found = claudeUsageLimit(record, text.trim(), at);
      const limit = found === null ? null : { kind: 'usage-limit' as const, at, resetsAt: found.resetsAt, detail };
      this.lastAssistantApiError = { detail, limit };
      this.signal = limit ?? { kind: 'api-error', at, detail };
      this.closeTurn(at, null);
      return;
    }
    this.lastAssistantApiError = null;
    const stopReason = str(message?.stop_reason);
    for (const block of arr(message?.content).map(obj)) {
      if (block === null) continue;
      switch (block.type) {
        case 'tool_use': {
          const id = str(block.id) ?? `anonymous-${at}`;
          const name = str(block.name) ?? 'tool';
          const input = obj(block.input) ?? {};
          const calls = (this.calls ??= new Map());
          calls.set(id, { id, name, detail: toolDetail(name, input), category: toolCategory(name), escalation: false, at });
          this.signal = { kind: 'tool-call', at, pending: [...calls.values()], approvalPolicy: null };
          break;
        }
        case 'thinking':
        case 'redacted_thinking':
          this.signal = { kind: 'progress', at };
          break;
        case 'text': {
          const stop = stopReason === null ? 'none' : TERMINAL_STOPS.has(stopReason) ? 'end' : stopReason === 'tool_use' ? 'tool-use' : 'none';
          this.signal = { kind: 'assistant-text', at, stop };
          if (stop === 'end') this.closeTurn(at, null);
          break;
        }
        default:
          break;
      }
    }
  }

  private applySystem(record: JsonRecord, at: number): void {
    const subtype = str(record.subtype);
    if (subtype === 'turn_duration' || subtype === 'stop_hook_summary') {
      const failed = this.lastAssistantApiError !== null;
      this.signal = this.lastAssistantApiError?.limit ?? { kind: 'turn-end', at, failed, detail: this.lastAssistantApiError?.detail ?? null };
      this.closeTurn(at, subtype === 'turn_duration' ? num(record.durationMs) : null);
    } else if (subtype === 'api_error') {
      this.signal = { kind: 'progress', at };
    }
  }

  private answered(at: number): void {
    if (this.answeredAt === null || at > this.answeredAt) this.answeredAt = at;
  }

  private closeTurn(at: number, durationMs: number | null): void {
    if (this.turn === null) return;
    this.turn = { ...this.turn, endedAt: at, durationMs: durationMs ?? this.turn.durationMs };
  }
}
