// What a hook payload says, as evidence (issue 6, agent-formats §1.9 and §2.9). Facts only: the
// engine decides what they mean for the row.
import type { HookEvent } from '../../engine';
import type { JsonRecord } from '../jsonl/parse-record';
import { arr, obj, oneLine, str } from '../jsonl/parse-record';

/**
 * The tool call a PreToolUse or PermissionRequest is about: async hooks land in the spool in any
 * order, so a call's PreToolUse may be written after its own PermissionRequest.
 */
export interface ToolCall {
  key: string;
  /** The question it asks ("asks: Which colour?") when the tool asks for input, else null. */
  asks: string | null;
}

/** Where an event sits in its turn: a turn's event written after the turn's own Stop came first. */
export interface TurnStep {
  /** Claude's prompt_id, Codex's turn_id. */
  turn: string;
  step: 'prompt' | 'tool-start' | 'tool-end' | 'request' | 'end';
  toolUseId: string | null;
}

export type HookFact =
  /** `vague`: a notification's words about a prompt a more precise hook may already have named. */
  | { kind: 'event'; event: HookEvent; detail: string | null; vague?: boolean; call?: ToolCall; step?: TurnStep }
  | { kind: 'notice'; message: string }
  | { kind: 'subagent-start'; agentId: string; name: string }
  | { kind: 'subagent-stop'; agentId: string }
  | { kind: 'ignored' };

/** One spool line, read by its provider: whose it is, where, inside which subagent, and what it says. */
export interface HookReading {
  sessionId: string | null;
  cwd: string | null;
  /** The subagent the event happened in (its state is the child's, not the lead's). */
  agentId: string | null;
  fact: HookFact;
}

/** A tool hook's subject ("Bash: npm test"): the tool and its command, file, description or URL. */
export function toolDetail(payload: JsonRecord): string | null {
  const tool = str(payload.tool_name);
  if (tool === null) return null;
  const input = obj(payload.tool_input);
  const subject = str(input?.command) ?? str(input?.file_path) ?? str(input?.description) ?? str(input?.url);
  return subject === null ? tool : `${tool}: ${oneLine(subject, 80)}`;
}

/** Tools whose prompt is a question or a plan to accept (Claude's AskUserQuestion and ExitPlanMode, Codex's request_user_input). */
const INPUT_TOOLS = new Set(['AskUserQuestion', 'ExitPlanMode', 'request_user_input']);

function asksInput(tool: string | null): boolean {
  return tool !== null && INPUT_TOOLS.has(tool);
}

/** A question's own words ("asks: Which database?"), else the tool and its subject. */
function requestDetail(payload: JsonRecord): string | null {
  const tool = str(payload.tool_name);
  if (tool === 'ExitPlanMode') return 'plan ready for approval';
  if (!asksInput(tool)) return toolDetail(payload);
  const input = obj(payload.tool_input);
  const first = obj(arr(input?.questions)[0]);
  const question = str(first?.question) ?? str(input?.question);
  return question === null ? 'asks a question' : `asks: ${oneLine(question, 100)}`;
}

function turnOf(payload: JsonRecord): string | null {
  return str(payload.prompt_id) ?? str(payload.turn_id);
}

/** Claude gives a call the same tool and input in both hooks (PermissionRequest carries no tool_use_id). */
function toolCall(payload: JsonRecord): ToolCall | undefined {
  const tool = str(payload.tool_name);
  if (tool === null) return undefined;
  return { key: JSON.stringify([turnOf(payload), tool, payload.tool_input ?? null]), asks: asksInput(tool) ? requestDetail(payload) : null };
}

/** The fact, with the call it is about (a tool's start or a request) and its place in its turn. */
function placed(fact: Extract<HookFact, { kind: 'event' }>, payload: JsonRecord, step: TurnStep['step']): HookFact {
  const call = step === 'tool-start' || step === 'request' ? toolCall(payload) : undefined;
  const turn = turnOf(payload);
  return { ...fact, ...(call === undefined ? {} : { call }), ...(turn === null ? {} : { step: { turn, step, toolUseId: str(payload.tool_use_id) } }) };
}

/** Agent hook events (Claude Code and Codex share the names). */
export function readHookPayload(payload: JsonRecord): HookFact {
  const event = str(payload.hook_event_name);
  switch (event) {
    case 'PermissionRequest':
      // Claude fires it for its question and plan tools too: those ask for an answer, not a permission.
      return placed(
        { kind: 'event', event: asksInput(str(payload.tool_name)) ? 'input-request' : 'permission-request', detail: requestDetail(payload) },
        payload,
        'request',
      );
    case 'Elicitation':
      return {
        kind: 'event',
        event: 'input-request',
        detail: str(payload.message) === null ? 'asks for input' : `asks: ${oneLine(str(payload.message) ?? '', 100)}`,
      };
    case 'PreToolUse':
      return placed({ kind: 'event', event: 'mid-turn', detail: toolDetail(payload) }, payload, 'tool-start');
    case 'UserPromptSubmit':
      return placed({ kind: 'event', event: 'mid-turn', detail: null }, payload, 'prompt');
    case 'PostToolUse':
    case 'PostToolUseFailure':
      return placed({ kind: 'event', event: 'mid-turn', detail: toolDetail(payload) }, payload, 'tool-end');
    case 'PostToolBatch':
    case 'PreCompact':
    case 'PostCompact':
      return { kind: 'event', event: 'mid-turn', detail: toolDetail(payload) };
    case 'Stop':
      return placed({ kind: 'event', event: 'stop', detail: null }, payload, 'end');
    case 'StopFailure':
      return placed({ kind: 'event', event: 'stop-failure', detail: str(payload.error) ?? 'the turn failed' }, payload, 'end');
    case 'SessionEnd':
      return { kind: 'event', event: 'session-end', detail: str(payload.reason) };
    case 'SubagentStart': {
      const agentId = str(payload.agent_id);
      return agentId === null ? { kind: 'ignored' } : { kind: 'subagent-start', agentId, name: str(payload.agent_type) ?? agentId };
    }
    case 'SubagentStop': {
      const agentId = str(payload.agent_id);
      return agentId === null ? { kind: 'ignored' } : { kind: 'subagent-stop', agentId };
    }
    case 'Notification':
      return readNotification(payload);
    default:
      return { kind: 'ignored' };
  }
}

function readNotification(payload: JsonRecord): HookFact {
  const type = str(payload.notification_type);
  const message = str(payload.message) ?? 'needs your attention';
  switch (type) {
    case 'idle_prompt':
      // Only that the turn is over (~60 s ago); nobody is being asked anything.
      return { kind: 'event', event: 'idle-notice', detail: null };
    case 'permission_prompt':
      return { kind: 'event', event: 'permission-request', detail: oneLine(message, 100), vague: true };
    case 'elicitation_dialog':
    case 'elicitation_url_dialog':
      return { kind: 'event', event: 'input-request', detail: oneLine(message, 100), vague: true };
    case 'auth_success':
    case 'elicitation_complete':
    case 'elicitation_response':
      return { kind: 'ignored' };
    default:
      return { kind: 'notice', message: oneLine(message, 120) };
  }
}

/** Codex's legacy notify program: only `agent-turn-complete` exists. */
function readNotifyPayload(payload: JsonRecord): HookFact {
  return str(payload.type) === 'agent-turn-complete' ? { kind: 'event', event: 'stop', detail: null } : { kind: 'ignored' };
}

/** Claude Code's and Codex's hooks (shared event names and fields), and Codex's notify program. */
export function readAgentHook(payload: JsonRecord, channel: 'hook' | 'notify'): HookReading {
  return {
    sessionId: str(payload.session_id) ?? str(payload['thread-id']),
    cwd: str(payload.cwd),
    agentId: str(payload.agent_id),
    fact: channel === 'notify' ? readNotifyPayload(payload) : readHookPayload(payload),
  };
}
