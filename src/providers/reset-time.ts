// A usage limit's reset as the agents print it ("resets 11:01pm (UTC)", "try again at 8:04 PM"):
// a wall-clock time read as the next such instant after the record, in a named zone or the
// machine's own. Never a guess: a zone Intl does not know, or a time that does not parse, is null.

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** A wall-clock time; the date parts only where the agent printed them. */
export interface WallTime {
  hour: number;
  minute: number;
  /** 0-based month and day of month, where printed ("Dec 5"). */
  month?: number;
  day?: number;
  year?: number;
}

/** The month's 0-based index from its English abbreviation ("Dec"), else null. */
export function monthIndex(name: string): number | null {
  const index = MONTHS.indexOf(name.slice(0, 3).toLowerCase());
  return index < 0 ? null : index;
}

/** 12-hour clock parts as a 24-hour hour ("11", "pm" → 23); null when out of range. */
export function hour24(hour: number, meridiem: string): number | null {
  if (hour < 1 || hour > 12) return null;
  const pm = meridiem.toLowerCase() === 'pm';
  return (hour % 12) + (pm ? 12 : 0);
}

/** The machine's own zone (Codex prints its clock in it, and Lookout reads on the same machine). */
export function localZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** A formatter for the zone, or null where Intl does not know it. */
function formatter(zone: string): Intl.DateTimeFormat | null {
  try {
    return new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
  } catch {
    return null;
  }
}

/** The wall clock of `instant` in the formatter's zone, as if it were UTC (ms). */
function wallAsUtc(format: Intl.DateTimeFormat, instant: number): number {
  const parts = new Map<string, number>(format.formatToParts(new Date(instant)).map((part) => [part.type, Number(part.value)]));
  const get = (type: string): number => parts.get(type) ?? 0;
  return Date.UTC(get('year'), get('month') - 1, get('day'), get('hour') % 24, get('minute'), get('second'));
}

/** The instant a wall-clock time (given as if UTC) has in the zone; twice, so a DST change between guesses settles. */
function instantOf(format: Intl.DateTimeFormat, wall: number): number {
  const first = wall - (wallAsUtc(format, wall) - wall);
  return wall - (wallAsUtc(format, first) - first);
}

/** Slack for a reset printed to the minute that falls in the record's own minute. */
const SAME_MINUTE_MS = 60_000;

/** The next instant after `after` whose wall clock in `zone` reads `time`; null for a zone Intl does not know. */
export function nextWallTime(after: number, time: WallTime, zone: string): number | null {
  const format = formatter(zone);
  if (format === null) return null;
  const now = new Date(wallAsUtc(format, Math.floor(after / 1000) * 1000));
  const year = time.year ?? now.getUTCFullYear();
  const month = time.month ?? now.getUTCMonth();
  const day = time.day ?? now.getUTCDate();
  for (let step = 0; step < 2; step += 1) {
    // No date printed: today, else tomorrow. A date without a year: this year, else next.
    const wall =
      time.day === undefined
        ? Date.UTC(year, month, day + step, time.hour, time.minute)
        : Date.UTC(year + (time.year === undefined ? step : 0), month, day, time.hour, time.minute);
    const instant = instantOf(format, wall);
    if (instant > after - SAME_MINUTE_MS) return instant;
    if (time.year !== undefined) return null;
  }
  return null;
}
