// Folds Factory Droid's session JSONL (0.225.x) into the facts the engine reads: `session_start`
// (id, title, folder), `message` records (Anthropic-style blocks: text, tool_use, tool_result),
// and `agent_turn_outcome`, Droid's own word that a turn ended and how. No statuses here.
import type { PendingTool, TranscriptSignal, TurnEvidence } from '../../engine';
import type { JsonRecord } from '../jsonl/parse-record';
import { blocksOf, textOf } from '../jsonl/content-blocks';
import { obj, oneLine, str, time } from '../jsonl/parse-record';
import { turnOutcome } from './outcome';
import { droidToolCategory, droidToolDetail } from './tools';

/** Titles Droid gives a session before it has a real one. */
const PLACEHOLDER_TITLES = new Set(['', 'untitled', 'new session']);

/**
 * Whether a user message is something the user typed, by Droid's own test: shown to both sides
 * (not the injected `llm_only` context, not a `user_only` notice such as an error), not hidden,
 * not written by a hook, with text.
 */
function isTypedPrompt(message: JsonRecord | null, blocks: readonly JsonRecord[]): boolean {
  const visibility = str(message?.visibility);
  if (visibility !== null && visibility !== 'both') return false;
  if (message?.hiddenFromUserViews === true || message?.hookEventName !== undefined) return false;
  return !blocks.some((block) => block.type === 'tool_result') && textOf(blocks) !== '';
}

/** A typed prompt opens the turn that decides the state (tested on the record alone). */
function opensDroidTurn(record: JsonRecord): boolean {
  if (record.type !== 'message' || time(record.timestamp) === null) return false;
  const message = obj(record.message);
  return str(message?.role) === 'user' && isTypedPrompt(message, blocksOf(message));
}

export class DroidTranscript {
  sessionId: string | null = null;
  title: string | null = null;
  cwd: string | null = null;
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
  /** The open turn's prompt id: Droid's outcome names it as its `turnId`. */
  private turnId: string | null = null;
  /** The last error Droid showed the user in this turn (a `user_only` message). */
  private notice: string | null = null;
  private sawStart = false;

  get headDone(): boolean {
    return this.sawStart && this.firstPrompt !== null;
  }

  get settled(): boolean {
    return this.turn !== null;
  }

  /** The head needs the session's first line and its first prompt; the injected context is skipped unread. */
  headWants(prefix: string): boolean {
    return prefix.includes('"session_start"') || (prefix.includes('"role":"user"') && !prefix.includes('"id":"context-'));
  }

  opensTurn(record: JsonRecord): boolean {
    return opensDroidTurn(record);
  }

  /** Before the turn: the session's first line always; the first prompt when the window holds the whole file. */
  keptBefore(lines: readonly string[], end: number, wholeFile: boolean): number[] {
    const kept: number[] = [];
    let prompt = !wholeFile;
    for (let index = 0; index < end; index += 1) {
      const start = (lines[index] ?? '').slice(0, 256);
      if (start.includes('"type":"session_start"')) kept.push(index);
      else if (!prompt && start.includes('"role":"user"') && !start.includes('"id":"context-') && !start.includes('"tool_result"')) {
        prompt = true;
        kept.push(index);
      }
    }
    return kept;
  }

  apply(record: JsonRecord): void {
    switch (str(record.type)) {
      case 'session_start':
        this.start(record);
        return;
      case 'message':
        this.message(record);
        return;
      case 'agent_turn_outcome':
        this.outcome(record);
        return;
      default:
        // Other records (compaction, metadata) carry no state.
        return;
    }
  }

  private start(record: JsonRecord): void {
    this.sawStart = true;
    this.sessionId = str(record.id) ?? str(record.sessionId) ?? this.sessionId;
    this.cwd = str(record.cwd) ?? this.cwd;
    // Older files spell it `sessionTitle`; "[Fork] " prefixes a forked session's title.
    const title = (str(record.title) ?? str(record.sessionTitle) ?? '').replace(/^(\[Fork\]\s*)+/i, '').trim();
    this.title = PLACEHOLDER_TITLES.has(title.toLowerCase()) ? null : oneLine(title, 100);
  }

  private message(record: JsonRecord): void {
    const at = time(record.timestamp);
    if (at === null) return; // a record without its own time cannot date a state
    this.firstAt ??= at;
    if (this.lastRecordAt === null || at > this.lastRecordAt) this.lastRecordAt = at;
    const message = obj(record.message);
    const blocks = blocksOf(message);
    const role = str(message?.role);
    if (role === 'assistant') this.assistant(blocks, at);
    else if (role === 'user') this.user(record, message, blocks, at);
  }

  private user(record: JsonRecord, message: JsonRecord | null, blocks: readonly JsonRecord[], at: number): void {
    if (blocks.some((block) => block.type === 'tool_result')) {
      for (const block of blocks) if (block.type === 'tool_result') this.pending.delete(str(block.tool_use_id) ?? '');
      this.signal = this.pending.size > 0 ? this.pendingSignal(at) : { kind: 'tool-result', at };
      this.answered(at);
      return;
    }
    if (!isTypedPrompt(message, blocks)) {
      // An error shown to the user: the outcome that follows says the turn failed, this says why.
      if (str(message?.visibility) === 'user_only') this.notice = textOf(blocks);
      return;
    }
    this.firstPrompt ??= oneLine(textOf(blocks), 100);
    this.pending.clear();
    this.notice = null;
    this.turnId = str(record.id);
    this.turn = { startedAt: at, endedAt: null, durationMs: null };
    this.signal = { kind: 'prompt', at };
    this.answered(at);
  }

  private assistant(blocks: readonly JsonRecord[], at: number): void {
    let called = false;
    for (const block of blocks) {
      if (block.type !== 'tool_use') continue;
      const id = str(block.id) ?? `anonymous-${at}`;
      const name = str(block.name) ?? 'tool';
      const input = obj(block.input) ?? {};
      this.pending.set(id, { id, name, detail: droidToolDetail(name, input), category: droidToolCategory(name), escalation: false });
      called = true;
    }
    // Text and thinking go on until Droid writes the turn's outcome: it always does when a turn ends.
    this.signal = called || this.pending.size > 0 ? this.pendingSignal(at) : { kind: 'progress', at };
  }

  private outcome(record: JsonRecord): void {
    const turnId = str(record.turnId);
    // A late outcome of an earlier turn leaves the open one open.
    if (this.turn === null || (turnId !== null && this.turnId !== null && turnId !== this.turnId)) return;
    // The outcome carries no time of its own: the turn ended with its last dated record.
    const at = this.lastRecordAt ?? this.turn.startedAt;
    const outcome = turnOutcome(str(record.reason), this.notice);
    this.pending.clear();
    this.answered(at);
    this.turn = { ...this.turn, endedAt: at };
    switch (outcome.kind) {
      case 'finished':
        this.signal = { kind: 'turn-end', at, failed: false, detail: null };
        return;
      case 'interrupted':
        this.interruptedTurns.push({ startedAt: this.turn.startedAt, endedAt: at });
        if (this.interruptedTurns.length > 5) this.interruptedTurns.shift();
        this.signal = { kind: 'interrupted', at };
        return;
      case 'failed':
        this.signal = { kind: 'turn-end', at, failed: true, detail: outcome.detail };
        return;
      case 'limited':
        this.signal = { kind: 'usage-limit', at, resetsAt: null, detail: outcome.detail };
        return;
    }
  }

  /** The approval policy a pending call is read under: null here, the provider knows the session's mode. */
  private pendingSignal(at: number): TranscriptSignal {
    return { kind: 'tool-call', at, pending: [...this.pending.values()], approvalPolicy: null };
  }

  private answered(at: number): void {
    if (this.answeredAt === null || at > this.answeredAt) this.answeredAt = at;
  }
}
