// Claude Code's own API-error record for a usage limit (R80): 2.1.x writes `apiError:
// "usage_limit_reached"` with the reset in `quotaLimits` / `apiErrorParams.rate_limit_info`;
// older versions wrote "Claude AI usage limit reached|<epoch>" or "You've hit your … limit ·
// resets 3pm (Europe/Berlin)". Only called on records flagged `isApiErrorMessage`.
import type { JsonRecord } from '../jsonl/parse-record';
import { num, obj, str } from '../jsonl/parse-record';
import type { WallTime } from '../reset-time';
import { hour24, monthIndex, nextWallTime } from '../reset-time';

/** The meta prompt 2.1.x sends by itself at the reset, after "Usage limit reset · Continuing automatically". */
const RESET_CONTINUATION = /^Your claude\.ai usage limit has reset\./;

/** Whether a user record is Claude's own continuation at a limit's reset: a new turn, though `isMeta`. */
export function isLimitResetContinuation(record: JsonRecord, text: string): boolean {
  return record.isMeta === true && RESET_CONTINUATION.test(text.trim());
}

const BAR_EPOCH = /^Claude AI usage limit reached\|(\d{9,13})/;
/** "You've hit your session limit", "… 5-hour limit", "… weekly limit", "You have hit your session limit". */
const HIT_YOUR_LIMIT = /^You(?:'|’)ve hit your [\w -]*limit|^You have hit your [\w -]*limit/;
/** "resets 11:01pm (UTC)", "resets Dec 5, 3pm (Europe/Berlin)", "reset time was 3:20pm Europe/Berlin". */
const RESET_WORDS = /\breset(?:s| time was)(?: at)? (?:([A-Z][a-z]{2}) (\d{1,2}),? )?(\d{1,2})(?::(\d{2}))?\s*([ap]m)\s*\(?([A-Za-z_]+(?:\/[A-Za-z_+-]+)*)\)?/i;

/** Seconds or milliseconds since the epoch, as ms. */
function epochMs(value: number): number {
  return value < 1e12 ? value * 1000 : value;
}

/** The reset from the record's own fields (epoch seconds), where 2.1.x writes them. */
function resetField(record: JsonRecord): number | null {
  const quota = num(obj(record.quotaLimits)?.resetsAt);
  const info = num(obj(obj(record.apiErrorParams)?.rate_limit_info)?.resetsAt);
  const value = quota ?? info;
  return value === null || value <= 0 ? null : epochMs(value);
}

/** The reset from the words, in the zone they name, as the next such time after the record. */
function resetFromWords(text: string, at: number): number | null {
  const match = RESET_WORDS.exec(text);
  if (match === null) return null;
  const [, monthName, day, hour, minute, meridiem, zone] = match;
  const hours = hour24(Number(hour), meridiem ?? '');
  if (hours === null || zone === undefined) return null;
  const time: WallTime = { hour: hours, minute: Number(minute ?? '0') };
  if (monthName !== undefined && day !== undefined) {
    const month = monthIndex(monthName);
    if (month === null) return null;
    time.month = month;
    time.day = Number(day);
  }
  return nextWallTime(at, time, zone);
}

/** A usage limit with its reset (null where the record gives none), or null when the error is another one. */
export function claudeUsageLimit(record: JsonRecord, text: string, at: number): { resetsAt: number | null } | null {
  const bar = BAR_EPOCH.exec(text);
  if (bar !== null) return { resetsAt: epochMs(Number(bar[1])) };
  if (str(record.apiError) !== 'usage_limit_reached' && !HIT_YOUR_LIMIT.test(text)) return null;
  return { resetsAt: resetField(record) ?? resetFromWords(text, at) };
}
