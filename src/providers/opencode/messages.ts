// What opencode's newest messages say, as facts for the engine (new-agents.md §1.3–1.4, seen in
// 1.1.65, 1.2.15 and 1.4.0 data). Pure: rows in, a signal out. No statuses here.
import type { PendingTool, TranscriptSignal } from '../../engine';
import type { JsonRecord } from '../jsonl/parse-record';
import { num, obj, oneLine, str } from '../jsonl/parse-record';
import { usageLimitOf } from './usage-limit';

/** A message row's `data`, parsed; null when it is not a JSON object (or could not be read). */
export function messageData(text: string | null): JsonRecord | null {
  if (text === null) return null;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonRecord) : null;
  } catch {
    return null;
  }
}

/** When a message was written (its own `time.created`; a row's time is the migration's for migrated data). */
export function createdAt(data: JsonRecord, rowTime: number): number {
  return num(obj(data.time)?.created) ?? rowTime;
}

/** A tool part still pending or running: a call without its result (R3). */
function openTool(part: JsonRecord): PendingTool | null {
  if (part.type !== 'tool') return null;
  const state = obj(part.state);
  const status = str(state?.status);
  if (status !== 'pending' && status !== 'running') return null;
  const name = str(part.tool) ?? 'tool';
  const input = obj(state?.input);
  const what = str(input?.command) ?? str(input?.filePath) ?? str(input?.pattern) ?? str(input?.url) ?? str(state?.title);
  // opencode's question tool asks the user (R3's question exception).
  const category: PendingTool['category'] = name === 'question' ? 'question' : name === 'task' ? 'subagent' : 'generic';
  return { id: str(part.callID) ?? name, name, detail: oneLine(what === null ? name : `${name}: ${what}`), category, escalation: false };
}

/**
 * The newest assistant message as a signal. Decisions (docs/providers.md): an error named
 * MessageAbortedError is the user's interrupt, a spent quota is a usage limit (./usage-limit.ts),
 * any other error fails the turn; no
 * `time.completed`, or a step that ended `tool-calls`, is a turn still going; `stop` ends it;
 * `length` and `content-filter` fail it. `other` is what the model library reports for a reason
 * it does not know; opencode's loop ends the turn on it (only `tool-calls` and `unknown` go on):
 * with output it is a finished turn, with no output tokens (as seen in 1.4.0) the turn produced
 * nothing and fails, so the user looks rather than reading "done".
 */
export function assistantSignal(data: JsonRecord, at: number, parts: readonly JsonRecord[]): TranscriptSignal {
  const error = obj(data.error);
  const completed = num(obj(data.time)?.completed);
  const when = completed ?? at;
  if (error !== null) {
    if (str(error.name) === 'MessageAbortedError') return { kind: 'interrupted', at: when };
    const limit = usageLimitOf(error, when);
    if (limit !== null) return limit;
    return { kind: 'api-error', at: when, detail: oneLine(str(obj(error.data)?.message) ?? str(error.message) ?? str(error.name) ?? 'error') };
  }
  const pending = parts.map(openTool).filter((tool): tool is PendingTool => tool !== null);
  if (pending.length > 0) return { kind: 'tool-call', at, pending, approvalPolicy: null };
  const finish = str(data.finish);
  if (completed === null || finish === null || finish === 'tool-calls') return { kind: 'progress', at: when };
  switch (finish) {
    case 'stop':
      return { kind: 'turn-end', at: when, failed: false, detail: null };
    case 'length':
      return { kind: 'api-error', at: when, detail: 'the reply hit the length limit' };
    case 'content-filter':
      return { kind: 'api-error', at: when, detail: 'the reply was stopped by a content filter' };
    case 'other':
      return (num(obj(data.tokens)?.output) ?? 0) > 0
        ? { kind: 'turn-end', at: when, failed: false, detail: null }
        : { kind: 'api-error', at: when, detail: 'the model ended the turn without output' };
    case 'error':
      return { kind: 'api-error', at: when, detail: 'the step ended in an error' };
    default:
      // A finish reason not seen before: not known to be over, so not "done"; it goes stale honestly.
      return { kind: 'progress', at: when };
  }
}
