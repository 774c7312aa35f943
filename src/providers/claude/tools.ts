// What a Claude tool call is, for R3's exceptions, and how a row names it.
import type { PendingTool } from '../../engine';
import type { JsonRecord } from '../jsonl/parse-record';
import { arr, obj, oneLine, str } from '../jsonl/parse-record';

export function toolCategory(name: string): PendingTool['category'] {
  switch (name) {
    case 'AskUserQuestion':
      return 'question';
    case 'ExitPlanMode':
      return 'plan';
    case 'Task':
    case 'Agent':
      return 'subagent';
    default:
      return 'generic';
  }
}

/** "Bash: npm publish", "asks: Which database?", "Agent: Find auth tests". */
export function toolDetail(name: string, input: JsonRecord): string {
  if (name === 'AskUserQuestion') {
    const first = obj(arr(input.questions)[0]);
    const question = str(first?.question) ?? str(input.question);
    return question === null ? 'asks a question' : `asks: ${oneLine(question, 100)}`;
  }
  if (name === 'ExitPlanMode') return 'plan ready for approval';
  const subject =
    str(input.command) ?? str(input.description) ?? str(input.file_path) ?? str(input.pattern) ?? str(input.url) ?? str(input.query) ?? str(input.prompt);
  return subject === null ? name : `${name}: ${oneLine(subject, 80)}`;
}
