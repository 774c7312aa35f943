// Folds Qwen Code's chat records (projects/<project>/chats/<session>.jsonl, append-only, in file
// order) into the facts the engine reads: the last status-bearing record, pending tool calls, the
// turn, title and folder. No statuses here. Record shapes: docs/providers.md (Qwen Code).
import type { PendingTool, TranscriptSignal, TurnEvidence } from '../../engine';
import type { JsonRecord } from '../jsonl/parse-record';
import { arr, obj, oneLine, str, time } from '../jsonl/parse-record';
import { stillAsking } from '../claude/transcript';
import { qwenToolCategory, qwenToolDetail } from './tools';
import { apiEvent, isFinalApiError } from './telemetry';

/** How far past the first prompt a head looks for the automatic title. */
const HEAD_TITLE_RECORDS = 40;

/** User records that open a turn without being the user's words (never the title). */
const NOTIFYING_USER = new Set(['cron', 'notification']);
/** User records written inside a running turn (drained with tool results, the goal runtime's own). */
const MID_TURN_USER = new Set(['mid_turn_user_message', 'goal_runtime']);

type UserKind = 'prompt' | 'notification' | 'mid-turn' | 'ignored';

function userKind(record: JsonRecord): UserKind {
  const subtype = str(record.subtype);
  if (subtype === null) return 'prompt';
  if (NOTIFYING_USER.has(subtype)) return 'notification';
  return MID_TURN_USER.has(subtype) ? 'mid-turn' : 'ignored';
}

function parts(record: JsonRecord): JsonRecord[] {
  return arr(obj(record.message)?.parts)
    .map(obj)
    .filter((part): part is JsonRecord => part !== null);
}

/** A record's visible words: its text parts that are not the model's thoughts. */
function visibleText(record: JsonRecord): string {
  return parts(record)
    .filter((part) => part.thought !== true)
    .map((part) => str(part.text) ?? '')
    .join('\n')
    .trim();
}

/** A prompt of the user's, by cheap text tests (escaped quotes in the text cannot fake a field). */
function isPromptLine(line: string): boolean {
  if (line.includes('"provenance":"real_user"')) return true;
  // Versions that wrote no provenance: a user record of no subtype.
  return line.includes('"type":"user"') && !line.includes('"subtype":') && !line.includes('"provenance":');
}

/** Opens the current turn: a prompt of the user or a notification the agent answers. */
function opensQwenTurn(record: JsonRecord): boolean {
  if (record.type !== 'user' || time(record.timestamp) === null) return false;
  const kind = userKind(record);
  return kind === 'prompt' || kind === 'notification';
}

export class QwenChat {
  sessionId: string | null = null;
  cwd: string | null = null;
  version: string | null = null;
  customTitle: string | null = null;
  firstPrompt: string | null = null;
  firstAt: number | null = null;
  lastRecordAt: number | null = null;
  signal: TranscriptSignal | null = null;
  turn: TurnEvidence | null = null;
  /** The newest record that answers a request: a tool result, a cancel, a prompt (R8). */
  answeredAt: number | null = null;
  readonly pending = new Map<string, PendingTool & { at: number }>();
  /** Turns the user interrupted, newest last (R12). */
  readonly interruptedTurns: { startedAt: number; endedAt: number }[] = [];
  /** The model's answer was received whole since the last status-bearing record (an api_response). */
  private answered = false;
  /** The turn's model calls that failed in a row (one api_error record each). */
  private failures = 0;
  /** A call of the current batch was cancelled (the user declined, or pressed Escape). */
  private cancelled = false;
  /** Records read after the first prompt (the head stops looking for the title after a few). */
  private recordsAfterPrompt = 0;

  get settled(): boolean {
    return this.signal !== null && this.turn !== null;
  }

  /**
   * The head has the session, its first prompt, and the automatic title if it came: Qwen writes
   * that a few records after the first answer (a later /rename is read where the end holds it).
   */
  get headDone(): boolean {
    return this.sessionId !== null && this.firstPrompt !== null && (this.customTitle !== null || this.recordsAfterPrompt >= HEAD_TITLE_RECORDS);
  }

  opensTurn(record: JsonRecord): boolean {
    return opensQwenTurn(record);
  }

  /** A head needs the user's records and system ones (a title); never the model's or the tools'. */
  headWants(prefix: string): boolean {
    return prefix.includes('"type":"user"') || prefix.includes('"type":"system"');
  }

  /** Before the turn: title records always; the first prompt when the window holds the whole file. */
  keptBefore(lines: readonly string[], end: number, wholeFile: boolean): number[] {
    const kept: number[] = [];
    let prompt = !wholeFile;
    for (let index = 0; index < end; index += 1) {
      const line = lines[index] ?? '';
      if (line.includes('"subtype":"custom_title"')) kept.push(index);
      else if (!prompt && isPromptLine(line)) {
        prompt = true;
        kept.push(index);
      }
    }
    return kept;
  }

  apply(record: JsonRecord): void {
    const at = time(record.timestamp);
    if (at === null) return;
    this.firstAt ??= at;
    if (this.lastRecordAt === null || at > this.lastRecordAt) this.lastRecordAt = at;
    if (this.firstPrompt !== null) this.recordsAfterPrompt += 1;
    this.sessionId = str(record.sessionId) ?? this.sessionId;
    this.cwd = str(record.cwd) ?? this.cwd;
    this.version = str(record.version) ?? this.version;
    switch (str(record.type)) {
      case 'user':
        this.applyUser(record, at);
        return;
      case 'assistant':
        this.applyAssistant(record, at);
        return;
      case 'tool_result':
        this.applyToolResult(record, at);
        return;
      case 'system':
        this.applySystem(record, at);
        return;
      default:
        return;
    }
  }

  private applyUser(record: JsonRecord, at: number): void {
    const kind = userKind(record);
    if (kind === 'ignored') return;
    if (kind === 'mid-turn') {
      if (this.pending.size === 0) this.signal = { kind: 'progress', at };
      return;
    }
    const text = visibleText(record);
    // The user's own words name the session; a cron prompt or an agent's notification does not.
    if (kind === 'prompt' && this.firstPrompt === null && text !== '' && str(record.provenance) !== 'system') this.firstPrompt = oneLine(text, 100);
    this.pending.clear();
    this.failures = 0;
    this.answered = false;
    this.cancelled = false;
    this.answer(at);
    this.signal = { kind: 'prompt', at };
    this.turn = { startedAt: at, endedAt: null, durationMs: null };
  }

  private applyAssistant(record: JsonRecord, at: number): void {
    const list = parts(record);
    const calls = list.map((part) => obj(part.functionCall)).filter((call): call is JsonRecord => call !== null);
    const answered = this.answered;
    this.answered = false;
    this.cancelled = false;
    if (calls.length > 0) {
      for (const call of calls) {
        const id = str(call.id) ?? `anonymous-${at}`;
        const name = str(call.name) ?? 'tool';
        this.pending.set(id, { id, name, detail: qwenToolDetail(name, obj(call.args) ?? {}), category: qwenToolCategory(name), escalation: false, at });
      }
      this.signal = this.pendingSignal(at);
      return;
    }
    if (visibleText(record) === '') {
      // Thoughts only, or nothing: the model is still at work.
      this.signal = { kind: 'progress', at };
      return;
    }
    // A whole answer follows its api_response and carries its usage; a stream cut short (Escape
    // mid-answer) is written as it stood, with neither: the user stopped the turn.
    if (!answered && record.usageMetadata === undefined) {
      this.interrupt(at);
      return;
    }
    // Written once the stream ended; a Stop hook or the goal runtime may still continue the turn.
    this.signal = { kind: 'assistant-text', at, stop: 'none' };
  }

  private applyToolResult(record: JsonRecord, at: number): void {
    for (const part of parts(record)) {
      const id = str(obj(part.functionResponse)?.id);
      if (id !== null) this.pending.delete(id);
    }
    if (str(obj(record.toolCallResult)?.status) === 'cancelled') this.cancelled = true;
    // A question or plan still open after a parallel call's result keeps waiting on the user.
    const asking = stillAsking(this.pending.values());
    if (asking !== null) {
      this.signal = asking;
      return;
    }
    this.answer(at);
    // Declined or cancelled, and nothing else left to run: the turn ends there (no model call follows).
    if (this.cancelled && this.pending.size === 0) {
      this.interrupt(at);
      return;
    }
    this.signal = this.pending.size > 0 ? this.pendingSignal(at) : { kind: 'tool-result', at };
  }

  private applySystem(record: JsonRecord, at: number): void {
    const payload = obj(record.systemPayload);
    switch (str(record.subtype)) {
      case 'custom_title':
        this.customTitle = str(payload?.customTitle) ?? this.customTitle;
        return;
      case 'ui_telemetry':
        this.applyTelemetry(payload, at);
        return;
      case 'turn_result':
        this.applyTurnResult(payload, at);
        return;
      default:
        // Snapshots, slash commands, compression, model changes: not status-bearing.
        return;
    }
  }

  /** API calls of the session's own turns (side queries, memory extraction, titles are not the turn). */
  private applyTelemetry(payload: JsonRecord | null, at: number): void {
    const event = apiEvent(payload, this.sessionId);
    if (event === null) return;
    if (event.kind === 'response') {
      this.answered = true;
      this.failures = 0;
      return;
    }
    this.failures += 1;
    if (isFinalApiError(event, this.failures)) {
      this.pending.clear();
      this.signal =
        event.quota === null
          ? { kind: 'api-error', at, detail: event.detail }
          : { kind: 'usage-limit', at, resetsAt: event.quota.resetsAt, detail: event.detail };
      this.closeTurn(at);
      return;
    }
    // Qwen retries with backoff: the turn goes on.
    this.signal = { kind: 'progress', at };
  }

  /** The settled outcome an ACP session (an IDE, `qwen serve`) writes at each turn's end. */
  private applyTurnResult(payload: JsonRecord | null, ended: number): void {
    switch (str(payload?.state)) {
      case 'completed':
        this.pending.clear();
        this.signal = { kind: 'turn-end', at: ended, failed: false, detail: null };
        this.closeTurn(ended);
        return;
      case 'cancelled':
        this.interrupt(ended);
        return;
      case 'error':
        this.pending.clear();
        this.signal = { kind: 'turn-end', at: ended, failed: true, detail: oneLine(str(obj(payload?.error)?.message) ?? 'the turn failed', 100) };
        this.closeTurn(ended);
        return;
      default:
        return;
    }
  }

  private pendingSignal(at: number): TranscriptSignal {
    return { kind: 'tool-call', at, pending: [...this.pending.values()], approvalPolicy: null };
  }

  private interrupt(at: number): void {
    if (this.turn !== null) {
      this.interruptedTurns.push({ startedAt: this.turn.startedAt, endedAt: at });
      if (this.interruptedTurns.length > 5) this.interruptedTurns.shift();
    }
    this.pending.clear();
    this.answer(at);
    this.signal = { kind: 'interrupted', at };
    this.closeTurn(at);
  }

  private answer(at: number): void {
    if (this.answeredAt === null || at > this.answeredAt) this.answeredAt = at;
  }

  private closeTurn(at: number): void {
    if (this.turn !== null) this.turn = { ...this.turn, endedAt: at };
  }
}
