// Admission of one JSONL line: a plain object or null. Keys that could reach a prototype are
// dropped, so no transcript can change how Lookout's own objects behave.

import { cutLine } from '../../engine/text-cut';
import { withoutUnreadField } from './skip-field';

export type JsonRecord = Record<string, unknown>;

/**
 * One line as a plain object, or null. JSON.parse defines every key as an own data property, so a
 * "__proto__" key in a transcript is just data: it cannot change any prototype. Records are read
 * field by field and never merged into Lookout's own objects.
 */
export function parseRecord(line: string): JsonRecord | null {
  const raw = line.endsWith('\r') ? line.slice(0, -1) : line;
  // Large fields Lookout never reads are cut before parsing (Codex session_meta instructions).
  const text = withoutUnreadField(raw);
  if (text.length === 0) return null;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonRecord) : null;
  } catch {
    return null;
  }
}

export function str(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

export function num(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

export function obj(value: unknown): JsonRecord | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonRecord) : null;
}

export function arr(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** An ISO-8601 timestamp as epoch ms, or null. */
export function time(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ms : null;
}

/** Collapses whitespace and trims to a display length; only the text's head is looked at (a pasted log can be megabytes). */
export function oneLine(text: string, max = 120): string {
  return cutLine(text, max);
}
