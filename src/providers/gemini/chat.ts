// Folds a Gemini CLI chat file (tmp/<project>/chats/session-*.jsonl, 0.61) into the facts the
// engine reads. The file is append-only, but a message is written again under the same id when it
// changes (the last one wins), `{"$set":{…}}` updates metadata (`messages` replaces the history,
// after a cancel), and `{"$rewindTo": id}` drops a message and what followed. Tool calls are
// written only once done, so a model turn whose call runs or waits for approval is one ambiguous
// record (a `gemini` message with no text and no calls): handed on as a pending call. No statuses.
import type { PendingTool, TranscriptSignal, TurnEvidence } from '../../engine';
import type { JsonRecord } from '../jsonl/parse-record';
import { arr, obj, oneLine, str, time } from '../jsonl/parse-record';
import { failureSignal } from './failure';

/** The words the CLI records when the user cancels a request (Esc). */
const CANCELLED = 'Request cancelled.';

/** The note the CLI adds (low error verbosity, its default) once a request failed and the turn is over. */
const FAILED_NOTE = 'This request failed.';

/** The CLI's own nudge when the model stopped too early: the same turn goes on. */
const CONTINUE = 'Please continue.';

/** A cancel written just before the prompt it cancels (the router call was pending): at most this far apart. */
const CANCEL_BEFORE_PROMPT_MS = 2000;

/** The call the file cannot name yet: it is written with its name only once it has finished. */
export const UNNAMED_CALL = 'a tool call (its name is written once it finishes)';

/** A message's text parts (thoughts left out), or its text when the content is a string. */
function messageText(content: unknown): string {
  if (typeof content === 'string') return content;
  return arr(content)
    .map((part) => {
      const item = obj(part);
      return item !== null && item.thought !== true ? (str(item.text) ?? '') : '';
    })
    .join('');
}

function hasFunctionResponse(content: unknown): boolean {
  return arr(content).some((part) => obj(obj(part)?.functionResponse) !== null);
}

/** A user message the user typed: text, not a tool's result, not the CLI's own session context. */
function isPrompt(record: JsonRecord): boolean {
  if (record.type !== 'user' || str(record.id) === null || hasFunctionResponse(record.content)) return false;
  const text = messageText(record.content).trim();
  return text !== '' && !text.startsWith('<session_context>');
}

/** A turn still going: its last record opened it or came from inside it. */
export function turnOpen(signal: TranscriptSignal | null): boolean {
  if (signal === null) return false;
  switch (signal.kind) {
    case 'prompt':
    case 'progress':
    case 'tool-call':
    case 'tool-result':
      return true;
    case 'assistant-text':
    case 'turn-end':
    case 'interrupted':
    case 'api-error':
    case 'usage-limit':
      return false;
  }
}

export class GeminiChat {
  sessionId: string | null = null;
  /** `main`, or `subagent` for a subagent's chat. */
  kind: string | null = null;
  firstPrompt: string | null = null;
  /** The CLI's own summary of the session (`$set.summary`), the better title. */
  summary: string | null = null;
  firstAt: number | null = null;
  lastRecordAt: number | null = null;
  signal: TranscriptSignal | null = null;
  turn: TurnEvidence | null = null;
  answeredAt: number | null = null;
  interruptedTurns: { startedAt: number; endedAt: number }[] = [];
  private promptId: string | null = null;
  /** The last cancel: a prompt right after it may be the one cancelled. */
  private cancelAt: number | null = null;
  private promptCancelled = false;
  private sawPrompt = false;
  /** The turn's last warning or info words: what a failure note after them is about. */
  private lastNote: string | null = null;

  get headDone(): boolean {
    return this.sessionId !== null && this.firstPrompt !== null;
  }

  get settled(): boolean {
    return this.sawPrompt;
  }

  opensTurn(record: JsonRecord): boolean {
    return isPrompt(record) && messageText(record.content).trim() !== CONTINUE;
  }

  /** The head needs the session's first line and its first prompt. */
  headWants(prefix: string): boolean {
    return prefix.includes('"sessionId"') || prefix.includes('"type":"user"') || prefix.startsWith('{"$set":{"summary"');
  }

  /**
   * Lines before the turn that still matter: a cancel just before its prompt (written first when
   * the router call was pending), summaries (the title) and, when the window holds the whole
   * file, its first line and first prompt.
   */
  keptBefore(lines: readonly string[], end: number, wholeFile: boolean): number[] {
    const kept: number[] = [];
    let prompt = !wholeFile;
    for (let index = 0; index < end; index += 1) {
      const line = lines[index] ?? '';
      if (line.startsWith('{"$set":{"summary"')) kept.push(index);
      else if (wholeFile && index === 0 && line.startsWith('{"sessionId"')) kept.push(index);
      else if (!prompt && line.includes('"type":"user"') && !line.includes('"functionResponse"') && !line.includes('<session_context>')) {
        prompt = true;
        kept.push(index);
      } else if (index >= end - 3 && line.includes('"type":"info"') && line.includes(CANCELLED)) kept.push(index);
    }
    return kept;
  }

  private seen(at: number | null): void {
    if (at === null) return;
    this.firstAt ??= at;
    if (this.lastRecordAt === null || at > this.lastRecordAt) this.lastRecordAt = at;
  }

  apply(record: JsonRecord): void {
    const rewind = str(record.$rewindTo);
    if (rewind !== null) return this.rewind();
    const set = obj(record.$set);
    if (set !== null) return this.metadata(set);
    const id = str(record.id);
    if (id === null) {
      // The first line: who the session is.
      if (str(record.sessionId) !== null) {
        this.sessionId = str(record.sessionId);
        this.kind = str(record.kind) ?? this.kind;
        this.seen(time(record.startTime));
      }
      return;
    }
    const at = time(record.timestamp);
    if (at === null) return;
    this.seen(at);
    this.message(id, at, record);
  }

  private message(id: string, at: number, record: JsonRecord): void {
    switch (str(record.type)) {
      case 'user':
        return this.user(id, at, record);
      case 'gemini':
        return this.model(id, at, record);
      case 'info':
      case 'warning':
        return this.note(messageText(record.content).trim(), at);
      case 'error':
        // Only the turn's own: an error shown between turns (a command that failed) ends nothing.
        if (turnOpen(this.signal)) this.end(failureSignal(messageText(record.content), at));
        return;
      default:
        // Warnings and any newer message type: not status-bearing.
        return;
    }
  }

  private user(id: string, at: number, record: JsonRecord): void {
    if (hasFunctionResponse(record.content)) {
      this.signal = { kind: 'tool-result', at };
      this.answeredAt = at;
      return;
    }
    if (!isPrompt(record)) return;
    const text = messageText(record.content).trim();
    if (text === CONTINUE && turnOpen(this.signal)) {
      this.signal = { kind: 'progress', at };
      return;
    }
    const shown = messageText(record.displayContent).trim();
    this.firstPrompt ??= oneLine(shown === '' ? text : shown);
    this.sawPrompt = true;
    this.promptId = id;
    this.lastNote = null;
    this.promptCancelled = this.cancelAt !== null && at - this.cancelAt <= CANCEL_BEFORE_PROMPT_MS;
    this.cancelAt = null;
    this.turn = { startedAt: at, endedAt: null, durationMs: null };
    this.signal = { kind: 'prompt', at };
    this.answeredAt = at;
  }

  private model(id: string, at: number, record: JsonRecord): void {
    const calls = arr(record.toolCalls)
      .map(obj)
      .filter((call): call is JsonRecord => call !== null);
    if (calls.length > 0) {
      // Written again once its calls are done: they ran (or were cancelled) by then.
      const done = Math.max(at, ...calls.map((call) => time(call.timestamp) ?? at));
      this.seen(done);
      this.reopen();
      this.signal = { kind: 'tool-result', at: done };
      this.answeredAt = done;
      return;
    }
    const text = messageText(record.content).trim();
    if (text !== '') {
      // Text with no call recorded: the answer, unless a call it made is still to be written.
      this.end({ kind: 'assistant-text', at, stop: 'none' });
      return;
    }
    this.reopen();
    // No text and no call: the model asked for a tool that runs or waits for approval (R3), or
    // (content as parts) an empty reply the CLI kept: the turn is not over by this record.
    const pending: PendingTool = { id, name: 'tool', detail: UNNAMED_CALL, category: 'generic', escalation: false };
    this.signal = typeof record.content === 'string' ? { kind: 'tool-call', at, pending: [pending], approvalPolicy: null } : { kind: 'progress', at };
  }

  /**
   * A cancel; or the failure note, which ends a turn no `error` record ended (a hook that blocked
   * or stopped the agent: its words came just before); other notes are not status-bearing.
   */
  private note(text: string, at: number): void {
    if (text === CANCELLED) return this.cancelled(at);
    if (text.startsWith(FAILED_NOTE) && turnOpen(this.signal)) {
      this.end({ kind: 'api-error', at, detail: oneLine(this.lastNote ?? text, 160) });
      return;
    }
    this.lastNote = text;
  }

  private cancelled(at: number): void {
    // Written before its prompt when the router call was pending: a prompt right after it, then
    // dropped from the history by the next `$set`, is the one cancelled.
    this.cancelAt = at;
    if (turnOpen(this.signal)) this.interrupt(at);
  }

  private interrupt(at: number): void {
    if (this.turn !== null) this.interruptedTurns.push({ startedAt: this.turn.startedAt, endedAt: at });
    this.end({ kind: 'interrupted', at });
    this.answeredAt = at;
  }

  private end(signal: TranscriptSignal): void {
    this.signal = signal;
    if (this.turn !== null) this.turn = { ...this.turn, endedAt: signal.at };
  }

  private reopen(): void {
    if (this.turn !== null && this.turn.endedAt !== null) this.turn = { ...this.turn, endedAt: null };
  }

  private metadata(set: JsonRecord): void {
    const updated = time(set.lastUpdated);
    this.seen(updated);
    const summary = str(set.summary)?.trim() ?? '';
    if (summary !== '') this.summary = oneLine(summary);
    if (!Array.isArray(set.messages)) return;
    // The history replaced (after a cancel): a prompt it left out, just after a cancel, was the one cancelled.
    const kept = new Set(set.messages.map((message) => str(obj(message)?.id)));
    if (this.promptCancelled && this.promptId !== null && !kept.has(this.promptId) && turnOpen(this.signal)) {
      this.interrupt(Math.max(updated ?? 0, this.signal?.at ?? 0));
    }
    this.promptCancelled = false;
  }

  /**
   * A rewind drops a message and all after it. Only a user at the prompt can rewind (Esc cancels a
   * turn first): no turn runs after it, whatever the records before said.
   */
  private rewind(): void {
    this.signal = { kind: 'turn-end', at: this.lastRecordAt ?? 0, failed: false, detail: null };
    this.turn = null;
    this.promptId = null;
  }
}
