// What a Qwen Code tool call is, for R3's exceptions, and how a row names it. Qwen's question and
// plan tools take the same arguments as Claude Code's: Claude's reading serves both.
import type { PendingTool } from '../../engine';
import type { JsonRecord } from '../jsonl/parse-record';
import { toolCategory, toolDetail } from '../claude/tools';

/** Qwen's tool names for the tools Claude Code names otherwise (tool-names.ts in the bundle). */
const AS_CLAUDE: Readonly<Record<string, string>> = {
  ask_user_question: 'AskUserQuestion',
  exit_plan_mode: 'ExitPlanMode',
};

/** Qwen's subagent tool. Unlike Claude's, it asks before it starts one: pending, it may be waiting. */
export const QWEN_AGENT_TOOL = 'agent';

/** The name Claude Code gives the same tool, or the name itself. */
export function claudeName(name: string): string {
  return AS_CLAUDE[name] ?? name;
}

export function qwenToolCategory(name: string): PendingTool['category'] {
  return toolCategory(claudeName(name));
}

/** "run_shell_command: npm test", "asks: Which database?", "plan ready for approval". */
export function qwenToolDetail(name: string, input: JsonRecord): string {
  return toolDetail(claudeName(name), input);
}
