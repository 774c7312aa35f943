// A usage limit's reset in words a person reads at a glance ("15:00", "Sat 7 Dec 15:00"), in this
// machine's own time zone: the only place the engine reads a zone, and it reads no clock.
// Made at their first use: a process's first formatter loads ICU's locale data (~20 ms on a slow
// machine), paid by every command that loads the engine though few rows show a reset.
let clock: Intl.DateTimeFormat | undefined;
let dayClock: Intl.DateTimeFormat | undefined;

/** Within this of `from`, the clock time alone is unambiguous enough. */
const SAME_DAY_MS = 20 * 3600_000;

/** The reset as a time of day, with its day when it is further than most of a day from `from`. */
export function resetWords(resetsAt: number, from: number): string {
  if (!Number.isFinite(resetsAt)) return 'an unknown time';
  const date = new Date(resetsAt);
  if (Math.abs(resetsAt - from) <= SAME_DAY_MS) {
    clock ??= new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    return clock.format(date);
  }
  dayClock ??= new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  return dayClock.format(date).replace(',', '');
}
