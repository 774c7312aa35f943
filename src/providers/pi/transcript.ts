// Folds Pi's session JSONL (version 3, pi-coding-agent 0.73.1) into the facts the engine reads:
// the `session` header (id, folder), `session_info` (the name set with /name), and `message`
// entries: user prompts, assistant turns (their tool calls and stop reason), tool results.
// Entries form a tree by id/parentId, but Pi only appends, and only at the leaf it is on: the file
// read in order is the session as it stands (a branch starts with a new prompt). No statuses here.
import type { PendingTool, TranscriptSignal, TurnEvidence } from '../../engine';
import type { JsonRecord } from '../jsonl/parse-record';
import { blocksOf, textOf } from '../jsonl/content-blocks';
import { obj, oneLine, str, time } from '../jsonl/parse-record';
import { saysQuotaSpent } from '../quota-words';
import type { RetrySettings } from './retries';
import { DEFAULT_RETRY, errorOutcome } from './retries';
import { piToolDetail } from './tools';

/** A prompt the person sent: a user message entry (tool results have a role of their own). */
function opensPiTurn(record: JsonRecord): boolean {
  if (record.type !== 'message') return false;
  return str(obj(record.message)?.role) === 'user';
}

export class PiTranscript {
  sessionId: string | null = null;
  title: string | null = null;
  cwd: string | null = null;
  /** The session this one was forked or cloned from (its file), where the header names one. */
  parentSession: string | null = null;
  firstPrompt: string | null = null;
  firstAt: number | null = null;
  lastRecordAt: number | null = null;
  signal: TranscriptSignal | null = null;
  turn: TurnEvidence | null = null;
  /** The newest record that answers a request: a tool result, a new prompt, the turn's end (R8). */
  answeredAt: number | null = null;
  /** Turns that ended by the user's interrupt, newest last (R12). */
  readonly interruptedTurns: { startedAt: number; endedAt: number }[] = [];
  private readonly pending = new Map<string, PendingTool>();
  /** Error turns in a row: Pi retries them, and only the attempt after the last says the turn failed. */
  private errors = 0;
  private sawHeader = false;

  constructor(private readonly retry: RetrySettings = DEFAULT_RETRY) {}

  get headDone(): boolean {
    return this.sawHeader && this.firstPrompt !== null;
  }

  get settled(): boolean {
    return this.turn !== null;
  }

  /** The head needs the header, names, and the first prompt. */
  headWants(prefix: string): boolean {
    return prefix.includes('"type":"session"') || prefix.includes('"type":"session_info"') || prefix.includes('"role":"user"');
  }

  opensTurn(record: JsonRecord): boolean {
    return opensPiTurn(record);
  }

  /** Before the turn: the header and names always; the first prompt when the window holds the whole file. */
  keptBefore(lines: readonly string[], end: number, wholeFile: boolean): number[] {
    const kept: number[] = [];
    let prompt = !wholeFile;
    for (let index = 0; index < end; index += 1) {
      const start = (lines[index] ?? '').slice(0, 256);
      if (start.includes('"type":"session"') || start.includes('"type":"session_info"')) kept.push(index);
      else if (!prompt && start.includes('"role":"user"')) {
        prompt = true;
        kept.push(index);
      }
    }
    return kept;
  }

  apply(record: JsonRecord): void {
    const type = str(record.type);
    if (type === 'session') {
      this.header(record);
      return;
    }
    const at = time(record.timestamp);
    if (at === null) return; // an entry without its own time cannot date a state
    if (this.lastRecordAt === null || at > this.lastRecordAt) this.lastRecordAt = at;
    switch (type) {
      case 'session_info': {
        const name = (str(record.name) ?? '').trim();
        this.title = name === '' ? null : oneLine(name, 100);
        return;
      }
      case 'message':
        this.message(obj(record.message), at);
        return;
      default:
        // Model and thinking changes, compactions, labels, extensions' entries: no state.
        return;
    }
  }

  private header(record: JsonRecord): void {
    this.sawHeader = true;
    this.sessionId = str(record.id) ?? this.sessionId;
    this.cwd = str(record.cwd) ?? this.cwd;
    this.parentSession = str(record.parentSession) ?? this.parentSession;
    this.firstAt ??= time(record.timestamp);
  }

  private message(message: JsonRecord | null, at: number): void {
    const blocks = blocksOf(message);
    switch (str(message?.role)) {
      case 'user':
        this.user(blocks, at);
        return;
      case 'assistant':
        this.assistant(message, blocks, at);
        return;
      case 'toolResult':
        this.pending.delete(str(message?.toolCallId) ?? '');
        this.signal = this.pending.size > 0 ? this.pendingSignal(at) : { kind: 'tool-result', at };
        this.answered(at);
        return;
      default:
        // `!` shell commands the person ran, extensions' messages, summaries: not the model's turn.
        return;
    }
  }

  private user(blocks: readonly JsonRecord[], at: number): void {
    this.firstPrompt ??= oneLine(textOf(blocks), 100) || null;
    this.pending.clear();
    this.errors = 0;
    // A prompt sent while a turn runs steers that turn: it does not start another.
    if (this.turn === null || this.turn.endedAt !== null) this.turn = { startedAt: at, endedAt: null, durationMs: null };
    this.signal = { kind: 'prompt', at };
    this.answered(at);
  }

  private assistant(message: JsonRecord | null, blocks: readonly JsonRecord[], at: number): void {
    const stop = str(message?.stopReason);
    if (stop === 'error') {
      this.failed(oneLine(str(message?.errorMessage) ?? 'error', 160), at);
      return;
    }
    this.errors = 0;
    if (stop === 'aborted') {
      this.endTurn(at, { kind: 'interrupted', at });
      if (this.turn !== null) this.interruptedTurns.push({ startedAt: this.turn.startedAt, endedAt: at });
      if (this.interruptedTurns.length > 5) this.interruptedTurns.shift();
      return;
    }
    for (const block of blocks) {
      if (block.type !== 'toolCall') continue;
      const id = str(block.id) ?? `anonymous-${at}`;
      const name = str(block.name) ?? 'tool';
      this.pending.set(id, { id, name, detail: piToolDetail(name, obj(block.arguments) ?? {}), category: 'generic', escalation: false });
    }
    if (this.pending.size > 0) {
      this.signal = this.pendingSignal(at);
      return;
    }
    // "stop" and "length" end the turn: Pi calls the model again only for tool calls.
    this.endTurn(at, { kind: 'turn-end', at, failed: false, detail: null });
  }

  /** An error turn: Pi retries it, compacts on an overflow, or the turn has failed. */
  private failed(words: string, at: number): void {
    this.errors += 1;
    const outcome = errorOutcome(words, this.errors, this.retry);
    if (outcome !== 'final') {
      this.signal = { kind: 'progress', at };
      return;
    }
    this.endTurn(at, saysQuotaSpent(words) ? { kind: 'usage-limit', at, resetsAt: null, detail: words } : { kind: 'api-error', at, detail: words });
  }

  private endTurn(at: number, signal: TranscriptSignal): void {
    this.pending.clear();
    this.errors = 0;
    this.signal = signal;
    this.answered(at);
    this.turn = this.turn === null ? { startedAt: at, endedAt: at, durationMs: null } : { ...this.turn, endedAt: at };
  }

  /** Pi itself never asks before a call; whether an extension of the person's might is the provider's to say. */
  private pendingSignal(at: number): TranscriptSignal {
    return { kind: 'tool-call', at, pending: [...this.pending.values()], approvalPolicy: null };
  }

  private answered(at: number): void {
    if (this.answeredAt === null || at > this.answeredAt) this.answeredAt = at;
  }
}
