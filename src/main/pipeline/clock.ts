// The one clock of the runtime and the command line. The engine never reads one: `now` is passed.

export type Clock = () => number;

export const systemClock: Clock = () => Date.now();

/** `--now` for a command that keeps running: time starts there and flows on. */
export function flowingClock(start: number, base: Clock = systemClock): Clock {
  const offset = start - base();
  return () => base() + offset;
}
