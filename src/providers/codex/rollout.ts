// Folds Codex rollout lines, in file order, into the facts §11 asks for: the turn, pending calls,
// the approval policy, the first session_meta, title and branch. No statuses here.
import type { PendingTool, TranscriptSignal, TurnEvidence, UsageWindow } from '../../engine';
import type { JsonRecord } from '../jsonl/parse-record';
import { arr, num, obj, oneLine, str, time } from '../jsonl/parse-record';
import { asksEscalation, toolCategory, toolDetail } from './tools';
import { codexUsageLimit, codexUsageWindows } from './usage-limit';

/** The record types keptBefore looks for, found in a line's first fields (the record's own type comes first). */
const KEPT_TYPE = /"(turn_aborted|task_started|turn_started|session_meta|token_count|user_message|item_completed)"/;

export interface CodexMeta {
  id: string;
  cwd: string | null;
  branch: string | null;
  parentThreadId: string | null;
  nickname: string | null;
  startedAt: number | null;
}

type Pending = PendingTool & { at: number };

/** Injected context that travels as a user message but is not the user's prompt. */
function isInjected(text: string): boolean {
  return /^\s*(<[a-z_]+[\s>]|# AGENTS\.md)/i.test(text);
}

export class CodexRollout {
  meta: CodexMeta | null = null;
  firstPrompt: string | null = null;
  branch: string | null = null;
  cwd: string | null = null;
  lastRecordAt: number | null = null;
  firstAt: number | null = null;
  turn: TurnEvidence | null = null;
  approvalPolicy: string | null = null;
  /** The newest record that answers a request: a call's output, an interrupt, a prompt (R8). */
  answeredAt: number | null = null;
  /** The newest token_count's usage windows (R83); empty until one carries any. */
  usageWindows: UsageWindow[] = [];
  /** Seen a task event: the file has explicit turns (Codex ≥ Feb 2026). */
  private explicitTurns = false;
  private turnOpen = false;
  /** The open turn's id, when its task_started named one: an end for another turn does not close it. */
  private turnId: string | null = null;
  private lastTurnActivity: number | null = null;
  private closing: TranscriptSignal | null = null;
  private legacySignal: TranscriptSignal | null = null;
  /** The calls left open, made at the first call: most readings hold none, and an empty Map is ~190 bytes a reading (issue 51). */
  private calls: Map<string, Pending> | null = null;
  private get openCalls(): number {
    return this.calls?.size ?? 0;
  }
  /** Turns the user interrupted, newest last (R12 keeps their children dropped). */
  readonly interruptedTurns: { startedAt: number; endedAt: number }[] = [];
  /** Undated legacy records take the newest time seen before them (docs/providers.md). */
  private clock: number | null = null;

  get headDone(): boolean {
    return this.meta !== null && this.firstPrompt !== null;
  }

  /** A task_started opens the turn that decides the state (files with explicit turns). */
  opensTurn(record: JsonRecord): boolean {
    const type = str(obj(record.payload)?.type);
    return record.type === 'event_msg' && (type === 'task_started' || type === 'turn_started');
  }

  /**
   * The head is read for the first session_meta and the first user message; the developer and
   * environment messages between them (often many KB) are not decoded. Legacy files (no envelope)
   * are read whole.
   */
  headWants(prefix: string): boolean {
    if (!prefix.startsWith('{"timestamp"')) return true;
    return (
      this.meta === null ||
      prefix.includes('"user_message"') ||
      prefix.includes('"item_completed"') ||
      (prefix.includes('"response_item"') && prefix.includes('"role":"user"'))
    );
  }

  /**
   * Lines before the turn that still matter, by the type in their first fields: the first
   * session_meta (the thread and its parent); turn aborts and, when there is one, turn starts
   * (interrupted turns keep their children dropped, R12); and user messages when the window
   * reaches the file's start (the first prompt names the thread).
   */
  keptBefore(lines: readonly string[], end: number, wholeFile: boolean): number[] {
    const kept: number[] = [];
    const turnStarts: number[] = [];
    let interrupted = false;
    // The newest usage windows before the turn stay known while the turn has none of its own (R83).
    let lastCount = -1;
    for (let index = 0; index < end; index += 1) {
      const line = lines[index] ?? '';
      // One search of the first fields for every type that matters (five searches a line cost 95 ms over 10,000 rollouts, issue 51).
      switch (KEPT_TYPE.exec(line.slice(0, 120))?.[1]) {
        case 'turn_aborted':
          interrupted = true;
          kept.push(index);
          break;
        case 'task_started':
        case 'turn_started':
          turnStarts.push(index);
          break;
        case 'session_meta':
          kept.push(index);
          break;
        case 'token_count':
          lastCount = index;
          break;
        case 'user_message':
          if (wholeFile) kept.push(index);
          break;
        case 'item_completed':
          if (wholeFile && line.slice(0, 400).includes('"UserMessage"')) kept.push(index);
          break;
        case undefined:
          break;
      }
    }
    if (lastCount >= 0) kept.push(lastCount);
    return (interrupted ? [...kept, ...turnStarts] : kept).sort((a, b) => a - b);
  }

  get settled(): boolean {
    const signal = this.signal;
    if (signal === null) return false;
    if (this.explicitTurns) return this.turn !== null;
    // Older files: a pending call is read under the approval policy of the turn_context before it
    // (R3), which may lie further back than the window.
    return signal.kind !== 'tool-call' || this.approvalPolicy !== null;
  }

  apply(record: JsonRecord): void {
    const own = time(record.timestamp);
    if (own !== null) this.clock = own;
    const at = own ?? this.clock;
    const type = str(record.type);
    const payload = obj(record.payload);
    if (at !== null) {
      this.firstAt ??= at;
      if (this.lastRecordAt === null || at > this.lastRecordAt) this.lastRecordAt = at;
    }
    if (payload === null) {
      // The legacy layout: a header line {id, timestamp, git} and bare response items.
      if (type === null && this.meta === null && str(record.id) !== null) this.applyMeta(record, at);
      else if (type !== null && at !== null) this.applyItem(record, at);
      return;
    }
    if (type === 'session_meta') {
      // Identity needs no time: trimmed headers carry none.
      if (this.meta === null) this.applyMeta(payload, at);
      return;
    }
    if (at === null) return;
    switch (type) {
      case 'turn_context':
        this.approvalPolicy = str(payload.approval_policy) ?? this.approvalPolicy;
        this.cwd = str(payload.cwd) ?? this.cwd;
        return;
      case 'event_msg':
        this.applyEvent(payload, at);
        return;
      case 'response_item':
        this.applyItem(payload, at);
        return;
      default:
        return;
    }
  }

  private applyMeta(payload: JsonRecord, at: number | null): void {
    const id = str(payload.id);
    if (id === null) return;
    const spawn = obj(obj(obj(payload.source)?.subagent)?.thread_spawn);
    const git = obj(payload.git);
    this.meta = {
      id,
      cwd: str(payload.cwd),
      branch: str(git?.branch),
      parentThreadId: str(spawn?.parent_thread_id),
      nickname: str(payload.agent_nickname) ?? str(spawn?.agent_nickname),
      startedAt: time(payload.timestamp) ?? at,
    };
    this.cwd ??= this.meta.cwd;
    this.branch ??= this.meta.branch;
  }

  private applyEvent(payload: JsonRecord, at: number): void {
    switch (str(payload.type)) {
      case 'task_started':
      case 'turn_started':
        this.explicitTurns = true;
        this.turnOpen = true;
        this.turnId = str(payload.turn_id);
        this.calls = null;
        this.closing = null;
        this.lastTurnActivity = at;
        this.turn = { startedAt: at, endedAt: null, durationMs: null };
        return;
      case 'task_complete':
      case 'turn_complete':
        this.explicitTurns = true;
        if (this.endsAnotherTurn(payload)) return;
        this.endTurn(at, this.keptLimit(turnEnd(payload, at)), num(payload.duration_ms));
        return;
      case 'turn_aborted':
        // Only an interrupt ends the turn; "replaced" and the like hand over to the next turn.
        if (str(payload.reason) === 'interrupted' && !this.endsAnotherTurn(payload)) this.endTurn(at, { kind: 'interrupted', at }, num(payload.duration_ms));
        return;
      case 'error':
        if (this.turnOpen)
          this.endTurn(at, codexUsageLimit(payload, at) ?? { kind: 'api-error', at, detail: oneLine(str(payload.message) ?? 'error', 100) }, null);
        return;
      case 'token_count':
        this.usageWindows = codexUsageWindows(payload, at) ?? this.usageWindows;
        return;
      case 'exec_command_end':
      case 'patch_apply_end':
      case 'mcp_tool_call_end':
        this.resolve(str(payload.call_id), at);
        return;
      case 'user_message':
        this.notePrompt(str(payload.message), at);
        return;
      case 'agent_message':
        this.touch(at, { kind: 'assistant-text', at, stop: 'none' });
        return;
      case 'agent_reasoning':
        this.touch(at, { kind: 'progress', at });
        return;
      case 'item_completed':
        this.applyCompletedItem(obj(payload.item), at);
        return;
      default:
        return;
    }
  }

  /** An error event that ended the turn on the usage limit stands over a plain task_complete after it (older builds write both). */
  private keptLimit(end: TranscriptSignal): TranscriptSignal {
    const limit = !this.turnOpen && this.closing?.kind === 'usage-limit' ? this.closing : null;
    return limit !== null && end.kind === 'turn-end' && !end.failed ? limit : end;
  }

  /** §11: a turn runs until a task_complete or turn_aborted *for that turn*; a late end of an earlier one is not it. */
  private endsAnotherTurn(payload: JsonRecord): boolean {
    const id = str(payload.turn_id);
    return this.turnOpen && this.turnId !== null && id !== null && id !== this.turnId;
  }

  /** Codex 0.147+ writes turn items instead of user_message / agent_message. */
  private applyCompletedItem(item: JsonRecord | null, at: number): void {
    const text = arr(item?.content)
      .map(obj)
      .map((part) => str(part?.text) ?? '')
      .join(' ');
    switch (str(item?.type)) {
      case 'UserMessage':
        this.notePrompt(text, at);
        return;
      case 'AgentMessage':
        this.touch(at, { kind: 'assistant-text', at, stop: 'none' });
        return;
      case 'Reasoning':
        this.touch(at, { kind: 'progress', at });
        return;
      default:
        return;
    }
  }

  private applyItem(payload: JsonRecord, at: number): void {
    switch (str(payload.type)) {
      case 'function_call':
      case 'custom_tool_call':
      case 'local_shell_call': {
        const callId = str(payload.call_id) ?? str(payload.id) ?? `anonymous-${at}`;
        const name = str(payload.name) ?? 'shell';
        const argumentsText = str(payload.arguments);
        const input = str(payload.input);
        const pending: Pending = {
          id: callId,
          name,
          detail: toolDetail(name, argumentsText, input),
          category: toolCategory(name),
          escalation: asksEscalation(argumentsText ?? input ?? ''),
          at,
        };
        (this.calls ??= new Map()).set(callId, pending);
        this.touch(at, this.pendingSignal(at));
        return;
      }
      case 'function_call_output':
      case 'custom_tool_call_output':
        this.resolve(str(payload.call_id), at);
        return;
      case 'reasoning':
        this.touch(at, { kind: 'progress', at });
        return;
      case 'message': {
        const role = str(payload.role);
        const text = arr(payload.content)
          .map(obj)
          .map((part) => str(part?.text) ?? '')
          .join(' ');
        if (role === 'assistant') this.touch(at, { kind: 'assistant-text', at, stop: 'none' });
        else if (role === 'user' && !this.explicitTurns && !isInjected(text)) this.notePrompt(text, at);
        return;
      }
      default:
        return;
    }
  }

  private notePrompt(text: string | null, at: number): void {
    this.answered(at);
    if (text !== null && !isInjected(text) && this.firstPrompt === null && text.trim() !== '') this.firstPrompt = oneLine(text, 100);
    if (!this.explicitTurns) {
      // Older files: a user message opens an implicit turn.
      this.calls = null;
      this.turn = { startedAt: at, endedAt: null, durationMs: null };
    }
    this.touch(at, { kind: 'prompt', at });
  }

  private resolve(callId: string | null, at: number): void {
    if (callId !== null) this.calls?.delete(callId);
    // An output answers a request only when no call is left pending (one may still ask).
    if (this.openCalls === 0) this.answered(at);
    this.touch(at, this.openCalls > 0 ? this.pendingSignal(at) : { kind: 'tool-result', at });
  }

  private pendingSignal(at: number): TranscriptSignal {
    const calls = [...(this.calls?.values() ?? [])];
    const newest = calls.reduce((latest, call) => Math.max(latest, call.at), 0);
    return { kind: 'tool-call', at: newest === 0 ? at : newest, pending: calls, approvalPolicy: this.approvalPolicy };
  }

  private answered(at: number): void {
    if (this.answeredAt === null || at > this.answeredAt) this.answeredAt = at;
  }

  private touch(at: number, signal: TranscriptSignal): void {
    this.lastTurnActivity = at;
    this.legacySignal = signal;
  }

  private endTurn(at: number, signal: TranscriptSignal, durationMs: number | null): void {
    this.turnOpen = false;
    this.calls = null;
    this.closing = signal;
    // Older files have no task events: the end still closes the implicit turn.
    this.legacySignal = signal;
    if (signal.kind === 'interrupted') this.answered(at);
    if (signal.kind === 'interrupted' && this.turn !== null) {
      this.interruptedTurns.push({ startedAt: this.turn.startedAt, endedAt: at });
      if (this.interruptedTurns.length > 5) this.interruptedTurns.shift();
    }
    if (this.turn === null && durationMs !== null) this.turn = { startedAt: at - durationMs, endedAt: at, durationMs };
    else if (this.turn !== null) this.turn = { ...this.turn, endedAt: at, durationMs: durationMs ?? this.turn.durationMs };
  }

  /** The lead's signal: from task events where the file has them, else from the last item (§11). */
  get signal(): TranscriptSignal | null {
    if (!this.explicitTurns) return this.legacySignal;
    if (!this.turnOpen) return this.closing;
    if (this.openCalls > 0) return this.pendingSignal(this.lastTurnActivity ?? 0);
    return this.lastTurnActivity === null ? null : { kind: 'progress', at: this.lastTurnActivity };
  }
}

/** A turn's end; 0.169+ ends a failed turn with a task_complete carrying `error` (no error event). */
function turnEnd(payload: JsonRecord, at: number): TranscriptSignal {
  const error = obj(payload.error);
  if (error === null) return { kind: 'turn-end', at, failed: false, detail: null };
  const limit = codexUsageLimit(error, at);
  if (limit !== null) return limit;
  const detail = str(error.message) ?? str(error.codex_error_info) ?? 'the turn failed';
  return { kind: 'turn-end', at, failed: true, detail: oneLine(detail, 100) };
}
