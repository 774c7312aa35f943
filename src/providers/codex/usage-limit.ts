// Codex's usage limit and usage windows. 0.169 ends the turn with a task_complete whose `error` has
// `codex_error_info: "usage_limit_exceeded"` and the words "You've hit your usage limit. … try
// again at 11:02 PM." (its clock, in the machine's zone); every token_count carries `rate_limits`.
import type { TranscriptSignal, UsageWindow } from '../../engine';
import type { JsonRecord } from '../jsonl/parse-record';
import { num, obj, oneLine, str } from '../jsonl/parse-record';
import type { WallTime } from '../reset-time';
import { hour24, localZone, monthIndex, nextWallTime } from '../reset-time';

const LIMIT_INFO = 'usage_limit_exceeded';
const HIT_YOUR_LIMIT = /^You(?:'|’)ve hit your usage limit/;
/** "try again at 11:02 PM", "try again at Dec 5, 2026 11:02 PM" (chrono's `%b %-d, %Y %-I:%M %p`). */
const TRY_AGAIN = /try again at (?:([A-Z][a-z]{2}) (\d{1,2})(?:st|nd|rd|th)?, (\d{4}) )?(\d{1,2}):(\d{2}) ?([AP]M)/i;

/** Epoch seconds or milliseconds as ms. */
function epochMs(value: number): number {
  return value < 1e12 ? value * 1000 : value;
}

/** Whether the error names the usage limit: its info (a string, or an object keyed by it) or its words. */
function isUsageLimit(error: JsonRecord, message: string): boolean {
  const info = error.codex_error_info;
  if (info === LIMIT_INFO) return true;
  if (obj(info)?.[LIMIT_INFO] !== undefined) return true;
  return HIT_YOUR_LIMIT.test(message);
}

/** The clock time the words give, as the next such instant after the record in this machine's zone. */
function resetFromWords(message: string, at: number): number | null {
  const match = TRY_AGAIN.exec(message);
  if (match === null) return null;
  const [, monthName, day, year, hour, minute, meridiem] = match;
  const hours = hour24(Number(hour), meridiem ?? '');
  if (hours === null) return null;
  const time: WallTime = { hour: hours, minute: Number(minute) };
  if (monthName !== undefined && day !== undefined && year !== undefined) {
    const month = monthIndex(monthName);
    if (month === null) return null;
    Object.assign(time, { month, day: Number(day), year: Number(year) });
  }
  return nextWallTime(at, time, localZone());
}

/** The error a turn ended on, as a usage-limit signal, or null when it is another error. */
export function codexUsageLimit(error: JsonRecord, at: number): Extract<TranscriptSignal, { kind: 'usage-limit' }> | null {
  const message = str(error.message) ?? '';
  if (!isUsageLimit(error, message)) return null;
  const field = num(error.resets_at);
  const inSeconds = num(error.resets_in_seconds);
  const resetsAt = field !== null ? epochMs(field) : inSeconds !== null ? at + inSeconds * 1000 : resetFromWords(message, at);
  return { kind: 'usage-limit', at, resetsAt, detail: message === '' ? null : oneLine(message, 100) };
}

/** One window of a token_count's `rate_limits`; `resets_in_seconds` counts from the event's time. */
function usageWindow(name: string, value: unknown, at: number): UsageWindow | null {
  const window = obj(value);
  const usedPercent = num(window?.used_percent);
  if (window === null || usedPercent === null) return null;
  const resetsAtField = num(window.resets_at);
  const inSeconds = num(window.resets_in_seconds);
  const resetsAt = resetsAtField !== null ? epochMs(resetsAtField) : inSeconds !== null ? at + inSeconds * 1000 : null;
  return { name, usedPercent, windowMinutes: num(window.window_minutes), resetsAt, at };
}

/** A token_count's windows (R83), or null where it carries none (a custom provider sends no headers). */
export function codexUsageWindows(payload: JsonRecord, at: number): UsageWindow[] | null {
  const limits = obj(payload.rate_limits);
  if (limits === null) return null;
  const windows = ['primary', 'secondary'].map((name) => usageWindow(name, limits[name], at)).filter((window): window is UsageWindow => window !== null);
  return windows.length > 0 ? windows : null;
}
