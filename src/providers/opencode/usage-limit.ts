// A usage limit in opencode's saved error (1.18.33 and Kilo 7.7.9, seen in the lab): an `APIError`
// whose `data` keeps the HTTP status, the response's headers and body. A 429 or 402 whose saved
// words say the quota is spent is a limit; its reset is read from the saved headers only.
import type { TranscriptSignal } from '../../engine';
import type { JsonRecord } from '../jsonl/parse-record';
import { num, obj, oneLine, str } from '../jsonl/parse-record';
import { saysQuotaSpent } from '../quota-words';

/** The limit an assistant message's `error` records, or null when it records another error. */
export function usageLimitOf(error: JsonRecord, at: number): TranscriptSignal | null {
  if (str(error.name) !== 'APIError') return null;
  const data = obj(error.data);
  const status = num(data?.statusCode);
  if (status !== 429 && status !== 402) return null;
  const message = str(data?.message);
  if (!saysQuotaSpent(message) && !saysQuotaSpent(str(data?.responseBody))) return null;
  return {
    kind: 'usage-limit',
    at,
    resetsAt: resetFromHeaders(obj(data?.responseHeaders), at),
    detail: oneLine(message ?? `HTTP ${String(status)}: usage limit reached`),
  };
}

/**
 * When the saved headers say to come back, measured from `at` (the record's time): `retry-after-ms`,
 * `retry-after` (seconds or an HTTP date), else the later of OpenAI's `x-ratelimit-reset-*`
 * durations, else Anthropic's unified reset (epoch seconds). Null when none says.
 */
export function resetFromHeaders(headers: JsonRecord | null, at: number): number | null {
  if (headers === null) return null;
  const header = (name: string): string | null => {
    const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name);
    return key === undefined ? null : (str(headers[key])?.trim() ?? null);
  };
  const ms = Number(header('retry-after-ms') ?? Number.NaN);
  if (Number.isFinite(ms) && ms >= 0) return at + ms;
  const after = header('retry-after');
  if (after !== null) {
    const seconds = Number(after);
    if (after !== '' && Number.isFinite(seconds) && seconds >= 0) return at + seconds * 1000;
    const date = Date.parse(after);
    if (Number.isFinite(date)) return date;
  }
  const durations = ['x-ratelimit-reset-requests', 'x-ratelimit-reset-tokens']
    .map((name) => duration(header(name)))
    .filter((value): value is number => value !== null);
  if (durations.length > 0) return at + Math.max(...durations);
  const unified = Number(header('anthropic-ratelimit-unified-reset') ?? Number.NaN);
  return Number.isFinite(unified) && unified > 0 ? unified * 1000 : null;
}

/** OpenAI's reset durations ("1h2m3.5s", "6m0s", "20ms") in ms; null when not one. */
function duration(text: string | null): number | null {
  if (text === null || !/^(\d+(\.\d+)?(h|ms|m|s))+$/.test(text)) return null;
  const unit: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1_000, ms: 1 };
  let total = 0;
  for (const match of text.matchAll(/(\d+(?:\.\d+)?)(h|ms|m|s)/g)) total += Number(match[1]) * (unit[match[2] ?? 's'] ?? 0);
  return total;
}
