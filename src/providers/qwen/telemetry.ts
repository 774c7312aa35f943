// Qwen Code's `ui_telemetry` records of its model calls: one `api_response` per answer, one
// `api_error` per failed attempt (it retries, and writes nothing when it gives up). Which failure
// is the last follows Qwen's own retry rules (retry.ts in the 0.24.4 bundle): 401/403 and other
// client errors fail at once; server errors and lost connections are tried 7 times; rate limits
// are waited out for as long as it takes — except a quota its words say is spent until a reset,
// which Qwen gives up on at once (quotaErrorDetection.ts): a usage limit.
import type { JsonRecord } from '../jsonl/parse-record';
import { num, obj, oneLine, str } from '../jsonl/parse-record';

/** The attempts Qwen makes before it gives up on a server error (DEFAULT_RETRY_OPTIONS.maxAttempts). */
const QWEN_MAX_ATTEMPTS = 7;

/** A turn's own calls are `<session>########<n>`; side queries (memory, titles, suggestions) add a purpose. */
const TURN_PROMPT = /^[^#]*#{8}\d+$/;

/** Rate limits and overload: waited out, for up to hours, with no last attempt to count to. */
const WAITED_OUT = new Set([429, 529]);

/** A spent quota, as Qwen's own fast-fail rule reads the words: its reset time where they give one. */
interface QuotaSpent {
  resetsAt: number | null;
}

export type ApiEvent = { kind: 'response' } | { kind: 'error'; status: number | null; detail: string; quota: QuotaSpent | null };

/** Qwen's rule (isQuotaExhaustedError): "quota", "exhausted" or "exceeded", and "will reset" or "reset at". */
function quotaSpent(words: string): QuotaSpent | null {
  const lower = words.toLowerCase();
  const spent =
    lower.includes('quota') && (lower.includes('exhausted') || lower.includes('exceeded')) && (lower.includes('will reset') || lower.includes('reset at'));
  return spent ? { resetsAt: resetInstant(words) } : null;
}

/** An instant after "reset(s) at": only one with its zone (a bare clock time would be a guess). */
const RESET_AT = /resets? at\s+(\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2}))/i;

function resetInstant(words: string): number | null {
  const match = RESET_AT.exec(words);
  if (match?.[1] === undefined) return null;
  const at = Date.parse(match[1].replace(' ', 'T'));
  return Number.isNaN(at) ? null : at;
}

/** The turn's model call a telemetry record reports, or null (another event, or a side query). */
export function apiEvent(payload: JsonRecord | null, sessionId: string | null): ApiEvent | null {
  const event = obj(payload?.uiEvent);
  if (event === null) return null;
  const prompt = str(event.prompt_id);
  if (prompt === null || !TURN_PROMPT.test(prompt) || (sessionId !== null && !prompt.startsWith(`${sessionId}#`))) return null;
  switch (str(event['event.name'])) {
    case 'qwen-code.api_response':
      return { kind: 'response' };
    case 'qwen-code.api_error': {
      const status = num(event.status_code);
      const words = str(event.error_message) ?? str(event.error_type) ?? 'API error';
      const detail = oneLine(status === null || words.startsWith(String(status)) ? words : `${status} ${words}`, 100);
      return { kind: 'error', status, detail, quota: quotaSpent(words) };
    }
    default:
      return null;
  }
}

/** Whether Qwen gives up after this failure (`failures`: the turn's failed attempts in a row, this one included). */
export function isFinalApiError(event: Extract<ApiEvent, { kind: 'error' }>, failures: number): boolean {
  const { status } = event;
  // Qwen fails fast on a quota spent until a reset, whatever the status.
  if (event.quota !== null) return true;
  if (status !== null && WAITED_OUT.has(status)) return false;
  if (status !== null && status >= 400 && status < 500 && status !== 408 && status !== 409) return true;
  return failures >= QWEN_MAX_ATTEMPTS;
}
