// What a Codex tool call is, for R3's exceptions, and how a row names it.
import type { PendingTool } from '../../engine';
import type { JsonRecord } from '../jsonl/parse-record';
import { arr, obj, oneLine, parseRecord, str } from '../jsonl/parse-record';

const SUBAGENT_TOOLS = new Set(['spawn_agent', 'send_input', 'wait', 'close_agent', 'resume_agent', 'wait_agent']);
const ESCALATIONS = ['require_escalated', 'with_additional_permissions'];

export function toolCategory(name: string): PendingTool['category'] {
  if (name === 'request_user_input') return 'question';
  return SUBAGENT_TOOLS.has(name) ? 'subagent' : 'generic';
}

/**
 * The call asks for escalated sandbox permissions (R3, `on-request`): the arguments' own
 * `sandbox_permissions` field, or in a custom call's input that key set to one of the values —
 * never the words merely appearing in a command.
 */
export function asksEscalation(argumentsText: string): boolean {
  const args = parseRecord(argumentsText);
  if (args !== null) return ESCALATIONS.includes(str(args.sandbox_permissions) ?? '');
  return /["']?sandbox_permissions["']?\s*:\s*["'](require_escalated|with_additional_permissions)["']/.test(argumentsText);
}

function commandOf(args: JsonRecord | null, input: string | null): string | null {
  const command = args?.cmd ?? args?.command;
  if (typeof command === 'string') return command;
  if (Array.isArray(command)) return command.filter((part): part is string => typeof part === 'string').join(' ');
  if (input !== null) {
    const match = /cmd\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(input);
    if (match?.[1] !== undefined) return match[1].replace(/\\"/g, '"');
    const patch = /\*\*\* (?:Update|Add|Delete) File: (.+)/.exec(input);
    if (patch?.[1] !== undefined) return patch[1];
    return input;
  }
  return null;
}

/** "exec_command: npm test", "asks: Which module first?". */
export function toolDetail(name: string, argumentsText: string | null, input: string | null): string {
  const args = argumentsText === null ? null : parseRecord(argumentsText);
  if (name === 'request_user_input') {
    const first = obj(arr(args?.questions)[0]);
    const question = str(first?.question) ?? str(args?.question);
    return question === null ? 'asks a question' : `asks: ${oneLine(question, 100)}`;
  }
  const subject = commandOf(args, input) ?? str(args?.message) ?? str(args?.path);
  return subject === null ? name : `${name}: ${oneLine(subject, 80)}`;
}
