// How a row names a Pi tool call. Pi's own tools (0.73.1): bash, read, write, edit, grep, find,
// ls; none asks the user, and Pi has no question, plan or subagent tool of its own.
import type { JsonRecord } from '../jsonl/parse-record';
import { str } from '../jsonl/parse-record';
import { toolDetail } from '../claude/tools';

/** "bash: npm test", "edit: src/app.ts": Pi names a file `path`, Claude's reading names it `file_path`. */
export function piToolDetail(name: string, input: JsonRecord): string {
  const path = str(input.path);
  return toolDetail(name, path === null || str(input.file_path) !== null ? input : { ...input, file_path: path });
}
