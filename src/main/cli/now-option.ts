// `--now <ISO-8601>` or the clock: the instant a command evaluates and records at.
import { systemClock } from '../pipeline/clock';
import { UsageError } from './usage-error';

export function resolveNow(text: string | undefined): number {
  if (text === undefined) return systemClock();
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(text)) {
    throw new UsageError(`--now takes an ISO-8601 time with a zone, like 2026-11-29T12:00:00Z (got "${text}")`);
  }
  const ms = Date.parse(text);
  if (!Number.isFinite(ms)) throw new UsageError(`--now is not a valid time: "${text}"`);
  return ms;
}
