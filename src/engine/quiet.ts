// Quiet hours (issue 16): a daily window in a time zone, and a pause the user sets from the tray.
// While quiet, nothing sounds or pops; the badge still counts; at the end, one digest. Pure: the
// time zone's clock is read with Intl, from `now` given.

export interface QuietHours {
  /** "HH:MM", local to `timeZone`. */
  from: string;
  to: string;
  /** An IANA zone ("Europe/Paris"); null for this machine's, as is one this runtime does not know. */
  timeZone: string | null;
}

/** A time of day, strictly "HH:MM" on a 24-hour clock. */
export const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Minutes since midnight of "HH:MM", or null when it is no time of day. */
export function minutesOf(text: string): number | null {
  const match = HHMM.exec(text);
  return match === null ? null : Number(match[1]) * 60 + Number(match[2]);
}

/** Whether `timeZone` is one this system knows. */
export function knownZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}

/** One formatter per zone: quiet is asked at every beat and every notification. */
const clocks = new Map<string | null, Intl.DateTimeFormat>();
function clockIn(timeZone: string | null): Intl.DateTimeFormat {
  let clock = clocks.get(timeZone);
  if (clock === undefined) {
    // A zone this runtime does not know reads this machine's clock (the settings warn once, on load).
    const zone = timeZone !== null && knownZone(timeZone) ? { timeZone } : {};
    clock = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: 'numeric', hourCycle: 'h23', ...zone });
    clocks.set(timeZone, clock);
  }
  return clock;
}

/** Minutes since local midnight at `now` in `timeZone` (this machine's when null). */
function localMinutes(now: number, timeZone: string | null): number {
  const parts = clockIn(timeZone).formatToParts(now);
  const value = (type: string): number => Number(parts.find((part) => part.type === type)?.value ?? 0);
  return value('hour') * 60 + value('minute');
}

/** Within the daily window; one that crosses midnight (22:00–07:00) spans it; from = to is never. */
export function inQuietHours(now: number, hours: QuietHours | null): boolean {
  if (hours === null) return false;
  const from = minutesOf(hours.from);
  const to = minutesOf(hours.to);
  if (from === null || to === null || from === to) return false;
  const at = localMinutes(now, hours.timeZone);
  return from < to ? at >= from && at < to : at >= from || at < to;
}

export function isQuiet(now: number, hours: QuietHours | null, pausedUntil: number | null): boolean {
  return (pausedUntil !== null && now < pausedUntil) || inQuietHours(now, hours);
}

/**
 * The next time the local clock reads `hhmm` after `now` ("until tomorrow morning"). Counted in
 * wall minutes: on a day the clocks change it is an hour off, which a pause can bear.
 */
export function nextLocal(now: number, hhmm: string, timeZone: string | null): number {
  const target = minutesOf(hhmm) ?? 8 * 60;
  const at = localMinutes(now, timeZone);
  const ahead = (target - at + 1440) % 1440 || 1440;
  const minuteStart = now - (now % 60_000);
  return minuteStart + ahead * 60_000;
}
