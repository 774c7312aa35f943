// GitHub Copilot CLI's opt-in hooks: a hooks file of Lookout's own in $COPILOT_HOME/hooks/ (the
// CLI merges every file there), and what its payloads say. Only a `notification` of a prompt the
// CLI shows (permission_prompt since 1.0.26, elicitation_dialog) asks the user: `permissionRequest`
// and `preToolUse` fire for auto-approved tools too, so Lookout does not listen to them.
import { join } from 'node:path';
import type { HookEdit, HookPlaces } from '../descriptor';
import type { HookReading } from '../hooks/events';
import type { JsonRecord } from '../jsonl/parse-record';
import { oneLine, str } from '../jsonl/parse-record';

export const COPILOT_HOOK_ENTRY = 'copilot';

/**
 * The events Lookout hears (camelCase, so payloads carry `sessionId`, `cwd`, `timestamp`): the
 * prompts shown, and what answers them (a prompt submitted, a tool finished or failed, the agent stopping).
 */
const COPILOT_HOOK_EVENTS = ['notification', 'userPromptSubmitted', 'postToolUse', 'postToolUseFailure', 'agentStop'] as const;

/** The hooks file: every event runs the same command, for at most 10 s (the shim takes milliseconds). */
export function copilotHooksFile(root: string, places: HookPlaces): HookEdit {
  const command = places.command(COPILOT_HOOK_ENTRY);
  // PowerShell runs a quoted program path only through its call operator.
  const handler = places.windows ? { type: 'command', powershell: `& ${command}`, timeoutSec: 10 } : { type: 'command', bash: command, timeoutSec: 10 };
  const hooks = Object.fromEntries(COPILOT_HOOK_EVENTS.map((event) => [event, [handler]]));
  return {
    kind: 'own-file',
    path: join(root, 'hooks', 'lookout.json'),
    text: `${JSON.stringify({ version: 1, hooks }, null, 2)}\n`,
    what: "Lookout's hooks file",
  };
}

/** One payload: a prompt shown is a request; anything else Lookout hears means the agent moved on. */
export function readCopilotHook(payload: JsonRecord): HookReading {
  const reading = (fact: HookReading['fact']): HookReading => ({
    sessionId: str(payload.sessionId) ?? str(payload.session_id),
    cwd: str(payload.cwd),
    agentId: null,
    fact,
  });
  const type = str(payload.notification_type);
  const message = oneLine(str(payload.message) ?? str(payload.title) ?? 'needs your attention', 100);
  switch (type) {
    case null:
      return reading({ kind: 'event', event: 'settled', detail: null });
    case 'permission_prompt':
      return reading({ kind: 'event', event: 'permission-request', detail: message });
    case 'elicitation_dialog':
      return reading({ kind: 'event', event: 'input-request', detail: message });
    case 'agent_idle':
      // The turn is over: the events file says how it ended.
      return reading({ kind: 'event', event: 'settled', detail: null });
    default:
      // Background shells and agents finishing, and the like: nobody is asked.
      return reading({ kind: 'ignored' });
  }
}
