// Qwen Code's `ui_telemetry` records of its model calls: one `api_response` per answer, one
// `api_error` per failed attempt (it retries, and writes nothing when it gives up). Which failure
// is the last follows Qwen's own retry rules (retry.ts in the 0.24.4 bundle): 401/403 and other
// client errors fail at once; server errors and lost connections are tried 7 times; rate limits
// are waited out for as long as it takes.
import type { JsonRecord } from '../jsonl/parse-record';
import { num, obj, oneLine, str } from '../jsonl/parse-record';

/** The attempts Qwen makes before it gives up on a server error (DEFAULT_RETRY_OPTIONS.maxAttempts). */
export const QWEN_MAX_ATTEMPTS = 7;

/** A turn's own calls are `<session>########<n>`; side queries (memory, titles, suggestions) add a purpose. */
const TURN_PROMPT = /^[^#]*#{8}\d+$/;

/** Rate limits and overload: waited out, for up to hours, with no last attempt to count to. */
const WAITED_OUT = new Set([429, 529]);

export type ApiEvent = { kind: 'response' } | { kind: 'error'; status: number | null; detail: string };

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
      return { kind: 'error', status, detail: oneLine(status === null || words.startsWith(String(status)) ? words : `${status} ${words}`, 100) };
    }
    default:
      return null;
  }
}

/** Whether Qwen gives up after this failure (`failures`: the turn's failed attempts in a row, this one included). */
export function isFinalApiError(event: Extract<ApiEvent, { kind: 'error' }>, failures: number): boolean {
  const { status } = event;
  if (status !== null && WAITED_OUT.has(status)) return false;
  if (status !== null && status >= 400 && status < 500 && status !== 408 && status !== 409) return true;
  return failures >= QWEN_MAX_ATTEMPTS;
}
