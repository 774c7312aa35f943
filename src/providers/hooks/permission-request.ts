// The `PermissionRequest` hook Claude Code made and Codex (and Qwen Code) follow: the prompt as
// `tool_name` + `tool_input`, the answer as `hookSpecificOutput.decision` on stdout. Printing
// nothing leaves the decision to the agent's own prompt.
import type { AnswerQuestion } from '../../engine';
import { ANSWER_LABEL_MAX, ANSWER_OPTIONS_MAX, ANSWER_QUESTIONS_MAX, ANSWER_QUESTION_MAX, ANSWER_WORD_MAX } from '../../engine/answer-caps';
import type { AnswerDecision, AnswerDraft } from '../answer-hook';
import { inputText, shownText, textOf, wholeDigest } from '../answer-hook';
import type { JsonRecord } from '../jsonl/parse-record';

const isRecord = (value: unknown): value is JsonRecord => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Claude's AskUserQuestion `questions`, as Lookout shows them; null when they are not that shape. */
function askedQuestions(input: JsonRecord): AnswerQuestion[] | null {
  const questions = input.questions;
  if (!Array.isArray(questions) || questions.length === 0 || questions.length > ANSWER_QUESTIONS_MAX) return null;
  const read: AnswerQuestion[] = [];
  for (const item of questions) {
    if (!isRecord(item) || typeof item.question !== 'string' || !Array.isArray(item.options)) return null;
    const options = item.options
      .filter(isRecord)
      .flatMap((option) =>
        typeof option.label === 'string'
          ? [{ label: option.label.slice(0, ANSWER_LABEL_MAX), description: textOf(option.description, ANSWER_QUESTION_MAX) }]
          : [],
      );
    if (options.length === 0) return null;
    read.push({
      question: item.question.slice(0, ANSWER_QUESTION_MAX),
      header: textOf(item.header, ANSWER_WORD_MAX),
      multiple: item.multiSelect === true || item.multiple === true,
      options: options.slice(0, ANSWER_OPTIONS_MAX),
    });
  }
  return read;
}

/** A whole string of the input (a prompt's text is cut only where it is shown, and says so). */
const whole = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** Fields that say nothing of what the call does (the model's own description of it) and so are not shown. */
const NOT_SHOWN = new Set(['description']);

/**
 * What a tool call does, in the words a person checks before allowing it: its main field (the
 * command, the path and edit, the URL), then every other field that changes what it does
 * (`dangerouslyDisableSandbox`, `replace_all`, `edit_mode`, an MCP write's owner and branch), whole.
 */
export function toolText(tool: string, input: JsonRecord): string {
  const { main, used } = mainText(input);
  if (main === null) return `${tool} ${inputText(input)}`;
  const others = Object.keys(input).filter((key) => !used.includes(key) && !NOT_SHOWN.has(key) && input[key] !== undefined);
  return others.length === 0 ? main : `${main}\n\n${others.map((key) => `${key}: ${inputText(input[key])}`).join('\n')}`;
}

/** The call's main field in a person's words, and which fields it used; null where there is none. */
function mainText(input: JsonRecord): { main: string | null; used: string[] } {
  const command = whole(input.command);
  if (command !== null) return { main: command, used: ['command'] };
  const pathKey = ['file_path', 'path', 'notebook_path'].find((key) => typeof input[key] === 'string');
  const path = pathKey === undefined ? null : whole(input[pathKey]);
  if (pathKey !== undefined && path !== null) {
    const contentKey = ['content', 'new_source'].find((key) => typeof input[key] === 'string');
    if (contentKey !== undefined) return { main: `${path}\n\n${String(input[contentKey])}`, used: [pathKey, contentKey] };
    const before = whole(input.old_string);
    const after = whole(input.new_string);
    if (before !== null && after !== null)
      return { main: `${path}\n\n- ${before.split('\n').join('\n- ')}\n+ ${after.split('\n').join('\n+ ')}`, used: [pathKey, 'old_string', 'new_string'] };
    if (Array.isArray(input.edits)) return { main: `${path}\n\n${inputText(input.edits)}`, used: [pathKey, 'edits'] };
    return { main: path, used: [pathKey] };
  }
  const url = whole(input.url);
  return url === null ? { main: null, used: [] } : { main: url, used: ['url'] };
}

/** Tools whose prompt is a person's own input, never a bare allow (Claude ignores one; Lookout offers none). */
const INTERACTIVE_TOOLS = new Set(['ExitPlanMode']);

/**
 * The prompt in a PermissionRequest payload. `questions`: whether the agent takes a question's
 * answers back through the hook (Claude's AskUserQuestion); elsewhere a question is the terminal's.
 */
export function readPermissionRequest(provider: string, payload: JsonRecord, questions: boolean): AnswerDraft | null {
  if (payload.hook_event_name !== 'PermissionRequest') return null;
  const sessionId = textOf(payload.session_id, ANSWER_WORD_MAX);
  const tool = textOf(payload.tool_name, ANSWER_WORD_MAX);
  const input = payload.tool_input;
  if (sessionId === null || sessionId === '' || tool === null || tool === '' || !isRecord(input) || INTERACTIVE_TOOLS.has(tool)) return null;
  const agentId = textOf(payload.agent_id, ANSWER_WORD_MAX);
  const base = { provider, sessionId, agentId: agentId === '' ? null : agentId, tool, agentRequest: null, whole: wholeDigest(tool, input) };
  if (tool === 'AskUserQuestion') {
    const asked = questions ? askedQuestions(input) : null;
    return asked === null ? null : { ...base, prompt: 'question', ...shownText(asked.map((item) => item.question).join('\n')), questions: asked };
  }
  return { ...base, prompt: 'approval', ...shownText(toolText(tool, input)), questions: [] };
}

/**
 * The hook's stdout for a decision. A question's answers go back as `allow` with `updatedInput`:
 * the original input, its `questions` verbatim, plus `answers` keyed by question text (several
 * labels joined with ", ").
 */
export function permissionReply(decision: AnswerDecision, payload: JsonRecord): string {
  const output = (body: JsonRecord): string => `${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: body } })}\n`;
  switch (decision.behavior) {
    case 'allow':
      return output({ behavior: 'allow' });
    case 'deny':
      return output(decision.message === null ? { behavior: 'deny' } : { behavior: 'deny', message: decision.message });
    case 'answers': {
      const input = isRecord(payload.tool_input) ? payload.tool_input : {};
      // Keyed by each question's own text, exactly as the agent wrote it (never a shortened copy).
      const asked = Array.isArray(input.questions) ? input.questions : [];
      const answers: Record<string, string> = {};
      asked.forEach((question, index) => {
        if (isRecord(question) && typeof question.question === 'string') answers[question.question] = (decision.answers[index] ?? []).join(', ');
      });
      return output({ behavior: 'allow', updatedInput: { ...input, answers } });
    }
  }
}
