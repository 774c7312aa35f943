// A request's draft from what opencode asks: a permission (what the person checks before allowing,
// whole) or a question with its options, cut to the channel's caps (the engine's, issue 48).
import { createHash } from 'node:crypto';
import { ANSWER_LABEL_MAX, ANSWER_OPTIONS_MAX, ANSWER_QUESTIONS_MAX, ANSWER_QUESTION_MAX, ANSWER_TEXT_MAX, ANSWER_WORD_MAX } from '../../../engine/answer-caps';
import type { AnswerDraft } from '../../answer-hook';
import type { Bag } from './config';
import { bag, config } from './config';

const cut = (value: unknown, max: number): string => (typeof value === 'string' ? value.slice(0, max) : '');

// What the person checks before allowing, whole: the command, the file and its diff, else the patterns.
function shown(p: Bag): string {
  const meta = bag(p.metadata) ?? {};
  if (typeof meta.command === 'string') return meta.command;
  const path = typeof meta.filepath === 'string' ? meta.filepath : typeof meta.filePath === 'string' ? meta.filePath : null;
  if (path !== null) return path + (typeof meta.diff === 'string' ? `\n\n${meta.diff}` : '');
  const patterns = Array.isArray(p.patterns) ? p.patterns.filter((item: unknown): item is string => typeof item === 'string') : [];
  return patterns.length > 0 ? patterns.join('\n') : typeof p.title === 'string' ? p.title : String(p.permission || 'permission');
}

// Never a silent cut: the card says how much is hidden, and such a prompt is answered in the terminal.
const shownPart = (text: string): { text: string; hidden: number } => ({
  text: text.slice(0, ANSWER_TEXT_MAX),
  hidden: Math.max(0, text.length - ANSWER_TEXT_MAX),
});
// The answer is bound to the whole request, every field, whatever is shown.
const wholeOf = (p: Bag): string =>
  createHash('sha256')
    .update(JSON.stringify(p) || '')
    .digest('hex');

function questionsOf(p: Bag): AnswerDraft['questions'] {
  return (Array.isArray(p.questions) ? p.questions : []).slice(0, ANSWER_QUESTIONS_MAX).map((item: unknown) => {
    const q = bag(item);
    const options: unknown[] = Array.isArray(q?.options) ? q.options : [];
    return {
      question: cut(q?.question, ANSWER_QUESTION_MAX),
      header: typeof q?.header === 'string' ? cut(q.header, ANSWER_WORD_MAX) : null,
      multiple: !!q?.multiple,
      options: options.slice(0, ANSWER_OPTIONS_MAX).flatMap((given) => {
        const o = bag(given);
        return o !== null && typeof o.label === 'string'
          ? [{ label: cut(o.label, ANSWER_LABEL_MAX), description: typeof o.description === 'string' ? cut(o.description, ANSWER_QUESTION_MAX) : null }]
          : [];
      }),
    };
  });
}

/** The draft for a `permission.asked` or `question.asked` event's properties; null for a question Lookout cannot show. */
export function draftOf(type: string, p: Bag): AnswerDraft | null {
  const base = {
    provider: config().provider,
    sessionId: cut(p.sessionID, ANSWER_WORD_MAX),
    agentId: null,
    agentRequest: cut(p.id, ANSWER_WORD_MAX),
    whole: wholeOf(p),
  };
  if (type === 'question.asked') {
    const questions = questionsOf(p);
    if (questions.length === 0 || questions.some((q) => q.options.length === 0)) return null;
    return { ...base, prompt: 'question', tool: 'question', ...shownPart(questions.map((q) => q.question).join('\n')), questions };
  }
  return { ...base, prompt: 'approval', tool: cut(String(p.permission || 'permission'), ANSWER_WORD_MAX), ...shownPart(shown(p)), questions: [] };
}
