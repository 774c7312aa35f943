// Folds GitHub Copilot CLI's events.jsonl (1.0.x; the flat legacy files too) into the facts the
// engine reads: the lead's last status-bearing record, its pending tool calls, an approval prompt
// written to the file, the turn, subagents as children, title and folder. No statuses here.
import type { PendingTool, TranscriptSignal, TurnEvidence } from '../../engine';
import type { JsonRecord } from '../jsonl/parse-record';
import { arr, obj, oneLine, str, time } from '../jsonl/parse-record';

/** A subagent's events, as one child (keyed by the tool call that started it). */
export interface CopilotChild {
  id: string;
  name: string;
  startedAt: number;
  lastAt: number;
  done: boolean;
  /** `subagent.failed` (1.0.102: `data.error`, the CLI's words): the child's task ended in failure. */
  failed: { at: number; error: string } | null;
}

/** The `errorType`s that never fail a turn: MCP servers warn about themselves mid-session. */
const NOT_TURN_ERRORS = new Set(['mcp']);

/**
 * The CLI's own categories for a turn stopped by a limit (1.0.102's session.error schema:
 * `rate_limit`, with codes such as user_weekly_rate_limited; `quota`, such as quota_exceeded).
 * It writes one only once it has given up; its record names no reset time.
 */
const LIMIT_ERRORS = new Set(['rate_limit', 'quota']);

/** What a tool call is, in words for the row: "bash: npm publish". */
function toolDetail(name: string, args: unknown): string {
  const input = obj(args);
  const command = str(input?.command) ?? str(input?.fullCommandText) ?? str(input?.path) ?? str(input?.pattern) ?? str(input?.url);
  return oneLine(command === null ? name : `${name}: ${command}`);
}

/** Autopilot's own "keep going" message: the loop the user started goes on, no new prompt (1.0.102). */
function isContinuation(data: JsonRecord | null): boolean {
  return data?.isAutopilotContinuation === true || data?.source === 'autopilot';
}

/** Which subagent an event belongs to: 1.0.55 writes a top-level agentId, 1.0.10 data.parentToolCallId. */
function agentOf(record: JsonRecord): string | null {
  return str(record.agentId) ?? str(obj(record.data)?.parentToolCallId);
}

export class CopilotEvents {
  sessionId: string | null = null;
  cwd: string | null = null;
  branch: string | null = null;
  version: string | null = null;
  firstPrompt: string | null = null;
  firstAt: number | null = null;
  lastRecordAt: number | null = null;
  signal: TranscriptSignal | null = null;
  turn: TurnEvidence | null = null;
  answeredAt: number | null = null;
  /** An approval prompt written to the file and not yet answered (1.0.77+). */
  permission: { at: number; detail: string } | null = null;
  /** The newest `session.shutdown` not followed by a `session.resume` or more activity. */
  shutdownAt: number | null = null;
  readonly children = new Map<string, CopilotChild>();
  /** 1.0.102 names a subagent's events by an agentId of its own: which task call (child) it is. */
  private readonly childIds = new Map<string, string>();
  private readonly pending = new Map<string, PendingTool>();
  /** Between a prompt and the turn_end that answers it (a turn_end after tool requests is not that). */
  private interactionOpen = false;
  /** The messageId of the prompt that opened the interaction: a later session.error naming it is that turn's failure. */
  private promptId: string | null = null;
  private requestedTools = false;
  /** Autopilot's task_complete was called: the turn_end that follows ends the loop, whatever it requested. */
  private taskCompleted = false;
  private sawPrompt = false;

  get headDone(): boolean {
    return this.sessionId !== null && this.firstPrompt !== null;
  }

  /** A prompt of the lead opens the turn that decides the state. */
  opensTurn(record: JsonRecord): boolean {
    return record.type === 'user.message' && agentOf(record) === null && !isContinuation(obj(record.data)) && time(record.timestamp) !== null;
  }

  /** The head needs the session's start (identity, folder) and its first prompt, nothing else. */
  headWants(prefix: string): boolean {
    return prefix.includes('"session.start"') || prefix.includes('"user.message"');
  }

  /**
   * Lines before the turn that still matter: the session's start and resumes (folder, branch) and,
   * when the window holds the whole file (no head is read then), the first prompt (the title).
   */
  keptBefore(lines: readonly string[], end: number, wholeFile: boolean): number[] {
    const kept: number[] = [];
    let prompt = !wholeFile;
    for (let index = 0; index < end; index += 1) {
      const line = lines[index] ?? '';
      const start = line.slice(0, 60);
      if (start.includes('"session.start"') || start.includes('"session.resume"')) kept.push(index);
      else if (!prompt && start.includes('"user.message"') && !line.includes('"agentId"') && !line.includes('"parentToolCallId"')) {
        prompt = true;
        kept.push(index);
      }
    }
    return kept;
  }

  get settled(): boolean {
    return this.sawPrompt;
  }

  private context(data: JsonRecord | null): void {
    const context = obj(data?.context);
    this.cwd = str(context?.cwd) ?? this.cwd;
    this.branch = str(context?.branch) ?? this.branch;
  }

  private pendingSignal(at: number): TranscriptSignal {
    return { kind: 'tool-call', at, pending: [...this.pending.values()], approvalPolicy: null };
  }

  apply(record: JsonRecord): void {
    const at = time(record.timestamp);
    if (at === null) return;
    this.firstAt ??= at;
    if (this.lastRecordAt === null || at > this.lastRecordAt) this.lastRecordAt = at;
    const type = str(record.type);
    const data = obj(record.data);
    const agent = agentOf(record);
    if (agent !== null && type !== 'subagent.started' && type !== 'subagent.completed' && type !== 'subagent.failed') {
      // A subagent's own work is the child's, never the lead's (R10).
      const child = this.children.get(this.childIds.get(agent) ?? agent);
      if (child !== undefined) child.lastAt = Math.max(child.lastAt, at);
      return;
    }
    // Any activity after a shutdown means the session came back (a resume is written first).
    if (type !== 'session.shutdown') this.shutdownAt = null;
    switch (type) {
      case 'session.start':
        this.sessionId = str(data?.sessionId) ?? this.sessionId;
        this.version = str(data?.copilotVersion) ?? this.version;
        this.context(data);
        return;
      case 'session.resume':
        this.context(data);
        return;
      case 'session.shutdown':
        this.shutdownAt = at;
        return;
      case 'user.message': {
        if (isContinuation(data)) {
          // Autopilot asks its model to go on: the same turn, still working (its first prompt keeps the title and start).
          this.interactionOpen = true;
          this.requestedTools = false;
          this.taskCompleted = false;
          if (this.pending.size === 0) this.signal = { kind: 'progress', at };
          return;
        }
        const text = (str(data?.content) ?? '').trim();
        this.firstPrompt ??= text === '' ? null : oneLine(text);
        this.sawPrompt = true;
        this.interactionOpen = true;
        this.promptId = str(data?.messageId);
        this.requestedTools = false;
        this.taskCompleted = false;
        this.pending.clear();
        this.permission = null;
        this.turn = { startedAt: at, endedAt: null, durationMs: null };
        this.signal = { kind: 'prompt', at };
        this.answeredAt = at;
        return;
      }
      case 'assistant.turn_start':
        this.interactionOpen = true;
        this.requestedTools = false;
        if (this.pending.size === 0) this.signal = { kind: 'progress', at };
        return;
      case 'assistant.message':
        // The turn's last message decides: tools requested, another turn follows; none, the answer.
        this.requestedTools = arr(data?.toolRequests).length > 0;
        if (this.pending.size === 0) this.signal = { kind: 'progress', at };
        return;
      case 'tool.execution_start': {
        const id = str(data?.toolCallId) ?? `call-${at}`;
        const name = str(data?.toolName) ?? 'tool';
        // `ask_user` asks the user a question: the CLI keeps the question itself out of the file (ephemeral).
        this.pending.set(id, {
          id,
          name,
          detail: toolDetail(name, data?.arguments),
          category: name === 'ask_user' ? 'question' : 'generic',
          escalation: false,
        });
        this.signal = this.pendingSignal(at);
        return;
      }
      case 'tool.execution_complete': {
        this.pending.delete(str(data?.toolCallId) ?? '');
        this.permission = null;
        this.answeredAt = at;
        this.signal = this.pending.size > 0 ? this.pendingSignal(at) : { kind: 'tool-result', at };
        return;
      }
      case 'permission.requested': {
        // A request a permission hook settled never reaches the user.
        if (data?.resolvedByHook === true) return;
        const request = obj(data?.permissionRequest);
        const text = str(request?.fullCommandText) ?? str(request?.intention) ?? str(request?.kind) ?? 'permission';
        this.permission = { at, detail: oneLine(`${str(request?.kind) ?? 'tool'}: ${text}`) };
        return;
      }
      case 'permission.completed':
        // Approved, denied or cancelled: the user (or a rule) answered; what follows says how it went.
        this.permission = null;
        this.answeredAt = at;
        // An approved call starts running now: its grace (R3) counts from the answer.
        if (this.pending.size > 0) this.signal = this.pendingSignal(at);
        return;
      case 'assistant.turn_end':
        // A turn that asked for tools is followed by another (the interaction goes on), unless it
        // called autopilot's task_complete: then the loop has ended.
        if (this.taskCompleted) return; // task_complete already ended the turn, as it said (success or not).
        if (this.requestedTools || this.pending.size > 0) {
          if (this.pending.size === 0) this.signal = { kind: 'progress', at };
          return;
        }
        this.interactionOpen = false;
        this.permission = null;
        this.signal = { kind: 'turn-end', at, failed: false, detail: null };
        if (this.turn !== null) this.turn = { ...this.turn, endedAt: at };
        return;
      case 'session.task_complete': {
        // Autopilot's end of the loop; the turn_end that follows only confirms it. `success: false`
        // is the agent saying the task could not be done: a failed end, in its own words.
        this.taskCompleted = true;
        this.interactionOpen = false;
        this.pending.clear();
        this.permission = null;
        const failed = data?.success === false;
        this.signal = { kind: 'turn-end', at, failed, detail: failed ? oneLine(str(data?.summary) ?? 'task not completed') : null };
        if (this.turn !== null) this.turn = { ...this.turn, endedAt: at };
        return;
      }
      case 'abort':
        this.interactionOpen = false;
        this.pending.clear();
        this.permission = null;
        this.answeredAt = at;
        this.signal = { kind: 'interrupted', at };
        if (this.turn !== null) this.turn = { ...this.turn, endedAt: at };
        return;
      case 'session.error': {
        // Only the turn's own: MCP warnings and errors between turns are not the user's turn failing.
        // 1.0.102 writes a turn's failure just after its turn_end, naming the prompt it answers.
        const ofThisPrompt = this.promptId !== null && str(data?.originatingMessageId) === this.promptId;
        if ((!this.interactionOpen && !ofThisPrompt) || NOT_TURN_ERRORS.has(str(data?.errorType) ?? '')) return;
        this.interactionOpen = false;
        this.pending.clear();
        const detail = oneLine(str(data?.message) ?? str(data?.errorType) ?? 'error');
        this.signal = LIMIT_ERRORS.has(str(data?.errorType) ?? '') ? { kind: 'usage-limit', at, resetsAt: null, detail } : { kind: 'api-error', at, detail };
        if (this.turn !== null) this.turn = { ...this.turn, endedAt: at };
        return;
      }
      case 'subagent.started': {
        const id = str(data?.toolCallId);
        if (id === null) return;
        if (agent !== null) this.childIds.set(agent, id);
        this.children.set(id, { id, name: str(data?.agentDisplayName) ?? str(data?.agentName) ?? id, startedAt: at, lastAt: at, done: false, failed: null });
        return;
      }
      case 'subagent.completed': {
        const child = this.children.get(str(data?.toolCallId) ?? '');
        if (child !== undefined) {
          child.done = true;
          child.lastAt = Math.max(child.lastAt, at);
        }
        return;
      }
      case 'subagent.failed': {
        // The CLI marks the child failed for good (its task tool returns the error to the lead).
        const child = this.children.get(str(data?.toolCallId) ?? '');
        if (child !== undefined) {
          child.failed = { at, error: oneLine(str(data?.error) ?? 'subagent failed') };
          child.lastAt = Math.max(child.lastAt, at);
        }
        return;
      }
      default:
        // Model changes, infos, warnings, usage, hooks, compaction: not status-bearing.
        return;
    }
  }
}
