// What a Droid tool call is, for R3's exceptions, and how a row names it. Tool names from the
// 0.225.2 binary: AskUser asks the user, ExitSpecMode proposes a spec to accept, Task starts a subagent.
import type { PendingTool } from '../../engine';
import type { JsonRecord } from '../jsonl/parse-record';
import { arr, obj, oneLine, str } from '../jsonl/parse-record';
import { toolDetail as namedCall } from '../claude/tools';

export function droidToolCategory(name: string): PendingTool['category'] {
  switch (name) {
    case 'AskUser':
      return 'question';
    case 'ExitSpecMode':
      return 'plan';
    case 'Task':
      return 'subagent';
    default:
      return 'generic';
  }
}

/** "Execute: npm test", "asks: Which database?", "spec ready for approval". */
export function droidToolDetail(name: string, input: JsonRecord): string {
  if (name === 'AskUser') {
    // The questionnaire is text the tool parses; a parsed form names its questions.
    const first = obj(arr(obj(input.parsed)?.questions ?? input.questions)[0]);
    const question =
      str(first?.question) ??
      str(input.questionnaire)
        ?.split('\n')
        .find((line) => line.trim() !== '') ??
      null;
    return question === null ? 'asks a question' : `asks: ${oneLine(question, 100)}`;
  }
  if (name === 'ExitSpecMode') return 'spec ready for approval';
  // Droid's file tools name their file `file_path` or `filePath`.
  const filePath = str(input.filePath);
  return namedCall(name, filePath === null || str(input.file_path) !== null ? input : { ...input, file_path: filePath });
}
