// What Gemini CLI's `error` record says of a request it gave up on (0.61.0): a usage limit or
// another failure. Only the CLI's own words count: to a 429 it appends a quota notice (by auth
// type, errorParsing.ts), and a daily quota it names outright; a long RetryInfo delay it writes
// as "Suggested retry after <n>s", the only reset time the record gives.
import type { TranscriptSignal } from '../../engine';
import { oneLine } from '../jsonl/parse-record';

/** The CLI's words for a quota: the API key's and Vertex's 429 notice, the Google login's, a daily quota. */
const QUOTA_WORDS = ['To increase your limits, request a quota increase', 'Possible quota limitations in place', 'You have exhausted your daily quota'];

/** The delay the API asked for, as the CLI quotes it ("3600s", "41.5s", "900ms"). */
const RETRY_AFTER = /Suggested retry after (\d+(?:\.\d+)?)(ms|s)\b/;

/** The retry delay measured from the record's own time: when the server said the quota comes back. */
function resetsAt(text: string, at: number): number | null {
  const match = RETRY_AFTER.exec(text);
  if (match === null) return null;
  const amount = Number(match[1]);
  return Number.isFinite(amount) ? at + Math.round(match[2] === 'ms' ? amount : amount * 1000) : null;
}

/** The signal of an `error` record that ended a turn: `usage-limit` where the CLI says quota, else `api-error`. */
export function failureSignal(text: string, at: number): TranscriptSignal {
  const detail = oneLine(text, 160) || 'error';
  if (!QUOTA_WORDS.some((words) => text.includes(words))) return { kind: 'api-error', at, detail };
  return { kind: 'usage-limit', at, resetsAt: resetsAt(text, at), detail };
}
