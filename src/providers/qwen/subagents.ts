// Qwen Code's subagents: agent-<id>.meta.json beside each subagent transcript says what it was
// asked to do, which tool call of the lead started it, and how it stands (running, paused,
// completed, failed, cancelled). Rewritten whole as it goes (read through WholeFiles).
import type { PendingTool, TranscriptSignal } from '../../engine';
import { parseRecord, str, time } from '../jsonl/parse-record';
import { QWEN_AGENT_TOOL } from './tools';

export interface SubagentMeta {
  description: string | null;
  /** The lead's `agent` call that started it. */
  toolUseId: string | null;
  status: string | null;
  updatedAt: number | null;
  lastError: string | null;
}

export function parseSubagentMeta(text: string): SubagentMeta | null {
  const record = parseRecord(text.trim());
  if (record === null) return null;
  return {
    description: str(record.description),
    toolUseId: str(record.toolUseId),
    status: str(record.status),
    updatedAt: time(record.lastUpdatedAt),
    lastError: str(record.lastError),
  };
}

/**
 * The child's state, its meta file's word over its transcript's (the transcript alone cannot tell a
 * finished subagent from one between rounds): over, by how it ended; running, at work unless its
 * transcript shows it asking or running a tool; with no meta file, the transcript's.
 */
export function childSignal(meta: SubagentMeta | null, transcript: TranscriptSignal | null, lastAt: number): TranscriptSignal | null {
  const at = meta?.updatedAt ?? lastAt;
  switch (meta?.status) {
    case 'completed':
      return { kind: 'turn-end', at, failed: false, detail: null };
    case 'failed':
      return { kind: 'api-error', at, detail: meta.lastError };
    case 'cancelled':
    case 'paused':
      // Stopped by the user, or set aside when its session closed: not at work.
      return { kind: 'interrupted', at };
    case 'running':
      return transcript === null || transcript.kind === 'assistant-text' || transcript.kind === 'turn-end' || transcript.kind === 'interrupted'
        ? { kind: 'progress', at: Math.max(at, lastAt) }
        : transcript;
    default:
      return transcript;
  }
}

/**
 * A pending `agent` call whose subagent has started was approved (Qwen asks first): it runs,
 * and reads as a subagent launch (R3); one with no subagent yet may be waiting for the user.
 */
export function withStartedSubagents(signal: TranscriptSignal | null, started: ReadonlySet<string>): TranscriptSignal | null {
  if (signal?.kind !== 'tool-call' || started.size === 0) return signal;
  const launched = (tool: PendingTool): boolean => tool.name === QWEN_AGENT_TOOL && started.has(tool.id);
  if (!signal.pending.some(launched)) return signal;
  return { ...signal, pending: signal.pending.map((tool) => (launched(tool) ? { ...tool, category: 'subagent' } : tool)) };
}
