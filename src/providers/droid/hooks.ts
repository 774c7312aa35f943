// Factory Droid's opt-in hooks: Lookout's handler in ~/.factory/settings.json `hooks` (Claude's
// shape; Droid also reads ~/.factory/hooks.json and, event by event, that file's entries win).
// The payloads are Claude's too, read by the shared reader, with one difference: Droid has no
// StopFailure, so its Stop fires after a failed turn as well and says only that the turn is over.
import { join } from 'node:path';
import type { HookEdit, HookSpec } from '../descriptor';
import type { HookReading } from '../hooks/events';
import { readAgentHook } from '../hooks/events';
import type { JsonRecord } from '../jsonl/parse-record';
import { str } from '../jsonl/parse-record';

export const DROID_HOOK_ENTRY = 'droid';

const TOOL = '*';

/** The events Lookout hears (verified firing under `droid exec` 0.225.2: tools, Stop, SessionEnd; the rest from the binary). */
export const DROID_EVENTS: readonly HookSpec[] = [
  { event: 'PreToolUse', matcher: TOOL },
  { event: 'PostToolUse', matcher: TOOL },
  { event: 'Notification', matcher: '' },
  { event: 'UserPromptSubmit', matcher: null },
  { event: 'Stop', matcher: null },
  { event: 'SessionEnd', matcher: null },
];

export function droidHooksEdit(root: string): HookEdit {
  // Droid's hook timeout is in seconds (default 60); the shim returns at once.
  return { kind: 'json-hooks', path: join(root, 'settings.json'), events: DROID_EVENTS, entry: DROID_HOOK_ENTRY, extra: { timeout: 10 } };
}

export function readDroidHook(payload: JsonRecord, channel: 'hook' | 'notify'): HookReading {
  const reading = readAgentHook(payload, channel);
  // How the turn ended is the transcript's to say (its agent_turn_outcome).
  return str(payload.hook_event_name) === 'Stop' ? { ...reading, fact: { kind: 'event', event: 'idle-notice', detail: null } } : reading;
}
