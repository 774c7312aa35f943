// Qwen Code's opt-in hooks: Claude Code's hook events, names and payloads (session_id, cwd,
// hook_event_name, tool_name, agent_id inside a subagent), set in $QWEN_HOME/settings.json. Each
// handler runs in the background (`async`), so none of them, PermissionRequest included, holds the
// prompt it reports; `timeout` is in seconds in 0.24.4 (1000 or more is read as milliseconds).
import { join } from 'node:path';
import type { HookEdit } from '../descriptor';
import { CLAUDE_EVENTS } from '../claude/descriptor';
import type { HookReading } from '../hooks/events';
import { readAgentHook } from '../hooks/events';
import type { JsonRecord } from '../jsonl/parse-record';
import { oneLine, str } from '../jsonl/parse-record';
import { claudeName } from './tools';

export const QWEN_HOOK_ENTRY = 'qwen';

export function qwenHooksEdit(root: string): HookEdit {
  return { kind: 'json-hooks', path: join(root, 'settings.json'), events: CLAUDE_EVENTS, entry: QWEN_HOOK_ENTRY, extra: { timeout: 10, async: true } };
}

/**
 * A payload read as Claude Code's: Qwen's question and plan tools go by Claude's names for them,
 * and a failed turn is told in the server's own words (`error_details`) over Qwen's error kind.
 */
export function readQwenHook(payload: JsonRecord, channel: 'hook' | 'notify'): HookReading {
  const tool = str(payload.tool_name);
  const reading = readAgentHook(tool === null ? payload : { ...payload, tool_name: claudeName(tool) }, channel);
  const words = str(payload.error_details);
  const { fact } = reading;
  if (fact.kind === 'event' && fact.event === 'stop-failure' && words !== null) return { ...reading, fact: { ...fact, detail: oneLine(words, 100) } };
  // Qwen fires PreToolUse once the call runs, after its PermissionRequest was answered (Claude fires it before asking): it answers the request.
  if (fact.kind === 'event' && str(payload.hook_event_name) === 'PreToolUse' && fact.call !== undefined) {
    const { call: _answered, ...rest } = fact;
    return { ...reading, fact: rest };
  }
  return reading;
}
