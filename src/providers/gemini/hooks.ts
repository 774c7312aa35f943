// Gemini CLI's opt-in hooks: Lookout's handler under `hooks` in its settings.json (the shape
// Claude Code uses: {Event: [{matcher, hooks: [{type, command, timeout}]}]}, timeout in ms), and
// what its payloads say. Only a prompt the CLI shows asks the user: the `Notification` of type
// `ToolPermission` (fired, and awaited, just before the dialog) and `ask_user`'s BeforeTool. The
// CLI waits for its hooks: the handler appends one line to the spool and returns at once.
import { join } from 'node:path';
import type { HookEdit, HookSpec } from '../descriptor';
import type { HookReading } from '../hooks/events';
import { toolDetail } from '../hooks/events';
import type { JsonRecord } from '../jsonl/parse-record';
import { arr, obj, oneLine, str } from '../jsonl/parse-record';

export const GEMINI_HOOK_ENTRY = 'gemini';

const TOOL = '*';

/** The events Lookout hears: turns starting and ending, tools before and after, prompts shown, sessions. */
export const GEMINI_EVENTS: readonly HookSpec[] = [
  { event: 'BeforeAgent', matcher: null },
  { event: 'AfterAgent', matcher: null },
  { event: 'BeforeTool', matcher: TOOL },
  { event: 'AfterTool', matcher: TOOL },
  { event: 'Notification', matcher: null },
  { event: 'SessionStart', matcher: null },
  { event: 'SessionEnd', matcher: null },
];

/** The CLI's question tool: it always asks the user. */
const QUESTION_TOOL = 'ask_user';

/** The hooks in settings.json: at most 5 s each (the shim takes milliseconds; the CLI waits for it). */
export function geminiHooksEdit(root: string): HookEdit {
  return { kind: 'json-hooks', path: join(root, 'settings.json'), events: GEMINI_EVENTS, entry: GEMINI_HOOK_ENTRY, extra: { name: 'lookout', timeout: 5000 } };
}

function question(input: JsonRecord | null): string {
  const first = obj(arr(input?.questions)[0]);
  const text = str(first?.question);
  return text === null ? 'asks a question' : `asks: ${oneLine(text, 100)}`;
}

/** The confirmation the CLI shows, in words for the row: "Shell: npm publish", "Edit: src/app.ts". */
function confirmation(details: JsonRecord | null, message: string): string {
  const subject = (label: string, value: string | null): string => (value === null ? oneLine(message, 100) : `${label}: ${oneLine(value, 100)}`);
  switch (str(details?.type)) {
    case 'exec':
      return subject('Shell', str(details?.command));
    case 'edit':
      return subject('Edit', str(details?.filePath) ?? str(details?.fileName));
    case 'mcp':
      return subject(str(details?.serverName) ?? 'MCP', str(details?.toolDisplayName) ?? str(details?.toolName));
    case 'info':
      return subject('Fetch', str(arr(details?.urls)[0]) ?? str(details?.prompt));
    default:
      return oneLine(message, 100);
  }
}

function notification(payload: JsonRecord): HookReading['fact'] {
  if (str(payload.notification_type) !== 'ToolPermission') return { kind: 'ignored' };
  const details = obj(payload.details);
  const message = str(payload.message) ?? 'needs your approval';
  switch (str(details?.type)) {
    case QUESTION_TOOL:
      // Its BeforeTool named the question already: this adds nothing but "a question".
      return { kind: 'event', event: 'input-request', detail: 'asks a question', vague: true };
    case 'exit_plan_mode':
      return { kind: 'event', event: 'input-request', detail: 'plan ready for approval' };
    default:
      return { kind: 'event', event: 'permission-request', detail: confirmation(details, message) };
  }
}

function fact(payload: JsonRecord): HookReading['fact'] {
  switch (str(payload.hook_event_name)) {
    case 'Notification':
      return notification(payload);
    case 'BeforeTool':
      if (str(payload.tool_name) === QUESTION_TOOL) return { kind: 'event', event: 'input-request', detail: question(obj(payload.tool_input)) };
      return { kind: 'event', event: 'mid-turn', detail: toolDetail(payload) };
    case 'AfterTool':
      return { kind: 'event', event: 'mid-turn', detail: toolDetail(payload) };
    case 'BeforeAgent':
      return { kind: 'event', event: 'mid-turn', detail: null };
    case 'AfterAgent':
      // Fired when a turn ends however it ended (answered, cancelled, failed): the turn is over,
      // the chat says how — and its text last is then the answer, not words before a call.
      return { kind: 'event', event: 'idle-notice', detail: null };
    case 'SessionStart':
      return { kind: 'event', event: 'settled', detail: null };
    case 'SessionEnd':
      return { kind: 'event', event: 'session-end', detail: str(payload.reason) };
    default:
      // PreCompress (fired every turn), model and tool-selection hooks: nothing about the user.
      return { kind: 'ignored' };
  }
}

/** One payload: its session, folder, and what it says (Gemini CLI has no subagent hooks). */
export function readGeminiHook(payload: JsonRecord): HookReading {
  return { sessionId: str(payload.session_id), cwd: str(payload.cwd), agentId: null, fact: fact(payload) };
}
