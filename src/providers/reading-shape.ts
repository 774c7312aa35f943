// A tail's reading as the session index may keep it (issue 14): only what carries no transcript
// text — a signal's kind and times, the turn's times — and checked field by field when taken back.
import type { TranscriptSignal, TurnEvidence } from '../engine';
import { hasShape, pick } from './plain-shape';

/**
 * Whether a signal can be kept: a pending tool call names its command, a failure or an API error
 * its words — those are transcript text, so such a file's end is read again instead.
 */
export function storableSignal(signal: TranscriptSignal | null): boolean {
  if (signal === null) return true;
  switch (signal.kind) {
    case 'tool-call':
    case 'usage-limit': // its reset and words come from the record: such a file's end is read again
      return false;
    case 'turn-end':
    case 'api-error':
      return signal.detail === null;
    case 'prompt':
    case 'tool-result':
    case 'progress':
    case 'assistant-text':
    case 'interrupted':
      return true;
  }
}

const AT = { at: 'number' } as const;
const TURN = { startedAt: 'number', endedAt: 'number?', durationMs: 'number?' } as const;
const SPAN = { startedAt: 'number', endedAt: 'number' } as const;
const STOPS = new Set(['end', 'tool-use', 'none']);

/** A kept signal back (absent: none; undefined: not a storable signal's shape). */
export function signalFrom(value: unknown): TranscriptSignal | null | undefined {
  if (value === null || value === undefined) return null;
  if (!hasShape(value, AT)) return undefined;
  const record = value as Record<string, unknown>;
  const at = value.at;
  switch (record.kind) {
    case 'prompt':
    case 'tool-result':
    case 'progress':
    case 'interrupted':
      return { kind: record.kind, at };
    case 'assistant-text':
      return typeof record.stop === 'string' && STOPS.has(record.stop)
        ? { kind: 'assistant-text', at, stop: record.stop as 'end' | 'tool-use' | 'none' }
        : undefined;
    case 'turn-end':
      return typeof record.failed === 'boolean' && record.detail === null ? { kind: 'turn-end', at, failed: record.failed, detail: null } : undefined;
    case 'api-error':
      return record.detail === null ? { kind: 'api-error', at, detail: null } : undefined;
    default:
      return undefined;
  }
}

/** A kept turn back (undefined: not a turn's shape). */
export function turnFrom(value: unknown): TurnEvidence | null | undefined {
  if (value === null || value === undefined) return null;
  return hasShape(value, TURN) ? pick(value, TURN) : undefined;
}

/** Kept interrupted turns back (undefined: not their shape). */
export function spansFrom(value: unknown): { startedAt: number; endedAt: number }[] | undefined {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return undefined;
  const spans: { startedAt: number; endedAt: number }[] = [];
  for (const item of value) {
    if (!hasShape(item, SPAN)) return undefined;
    spans.push(pick(item, SPAN));
  }
  return spans;
}
