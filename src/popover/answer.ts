// Answering a row's prompt from the popover (§13, R70–R75), as pure data: the draft being made
// (options chosen, a message for Deny), what a click or a key sends, and why a key is refused.
// App.tsx carries the actions out; AnswerCard.tsx renders them.
import type { AnswerDecision, PopoverCommand, SettingsView } from '../engine/contract';
import type { Row, RowAnswer } from '../engine/row';
import type { TextPiece } from '../engine/visible-text';
import { hiddenCount, visiblePieces } from '../engine/visible-text';

export type OpenAnswer = Extract<RowAnswer, { state: 'open' }>;
export type Answering = SettingsView['answering'];
type AnswerCommand = Extract<PopoverCommand, { type: 'answer' | 'release' }>;

/** Issue 47: a prompt not shown whole is never answered from Lookout, only in the agent's own prompt. */
export function tooLongNotice(open: OpenAnswer): string | null {
  return open.hidden > 0 ? `cut: ${open.hidden.toLocaleString('en-US')} more characters not shown — answer it in the terminal` : null;
}

/** R72, said on the card when a key would answer a prompt that has only just appeared. */
export const GRACE_NOTICE = 'wait a moment: this prompt just appeared';

/** What the person is preparing for one request; any other request starts from nothing. */
export interface AnswerDraft {
  request: string;
  /** Option indexes chosen, question by question. */
  chosen: readonly (readonly number[])[];
  /** Words for the agent with Deny. */
  message: string;
  /** The whole command or edit shown, not the first lines. */
  showAll: boolean;
  /** Sent, no result yet: nothing more is sent meanwhile. */
  pending: boolean;
  /** The last refusal or hint for this prompt. */
  notice: string;
}

/** allow: Allow (a question: Send); deny: Deny with the message; send: the chosen options. */
export type AnswerIntent = 'allow' | 'deny' | 'send';

export type AnswerAction =
  | { type: 'send-answer'; command: AnswerCommand }
  | { type: 'answer-notice'; request: string; text: string }
  | { type: 'answer-choose'; request: string; question: number; option: number; multiple: boolean };

export function openAnswer(row: Row | null | undefined): OpenAnswer | null {
  return row?.answer?.state === 'open' ? row.answer : null;
}

export function emptyDraft(request: string): AnswerDraft {
  return { request, chosen: [], message: '', showAll: false, pending: false, notice: '' };
}

/** The draft for this request: the one kept if it is for it, else a fresh one. */
export function draftFor(draft: AnswerDraft | null, request: string): AnswerDraft {
  return draft?.request === request ? draft : emptyDraft(request);
}

/** A choice: a single-answer question takes the option; a multiple one toggles it. */
export function choose(draft: AnswerDraft, question: number, option: number, multiple: boolean): AnswerDraft {
  const current = draft.chosen[question] ?? [];
  const next = multiple ? (current.includes(option) ? current.filter((item) => item !== option) : [...current, option].sort((a, b) => a - b)) : [option];
  const chosen = Array.from({ length: Math.max(draft.chosen.length, question + 1) }, (_, index) => (index === question ? next : (draft.chosen[index] ?? [])));
  return { ...draft, chosen, notice: '' };
}

/** R72: keys answer this prompt only from `keysFrom` on (the runtime's clock, as the popover knows it). */
function keysOpen(open: OpenAnswer, now: number): boolean {
  return now >= Date.parse(open.keysFrom);
}

/** "1"…"9" as an option's index, else null. */
export function digitOption(key: string): number | null {
  return /^[1-9]$/.test(key) ? Number(key) - 1 : null;
}

/** The decision an intent makes of this prompt and draft, or why it makes none yet. */
export function decisionFor(open: OpenAnswer, draft: AnswerDraft, intent: AnswerIntent): { decision: AnswerDecision } | { why: string } {
  if (intent === 'deny') {
    const message = draft.message.trim();
    return { decision: { behavior: 'deny', message: message === '' ? null : message.slice(0, 2000) } };
  }
  if (open.prompt === 'approval') return intent === 'allow' ? { decision: { behavior: 'allow' } } : { why: 'this prompt asks for Allow or Deny' };
  const answers: string[][] = [];
  for (const [index, question] of open.questions.entries()) {
    const labels = (draft.chosen[index] ?? []).flatMap((option) => {
      const label = question.options[option]?.label;
      return label === undefined ? [] : [label];
    });
    if (labels.length === 0) return { why: open.questions.length === 1 ? 'choose an option first' : `choose an option for question ${index + 1} first` };
    answers.push(labels);
  }
  return { decision: { behavior: 'answers', answers } };
}

export interface AnswerInput {
  row: Row;
  draft: AnswerDraft | null;
  intent: AnswerIntent;
  /** A key press (R72's grace applies, here and in the runtime) or a pointer click on the card. */
  via: 'key' | 'click';
  now: number;
  answering: Answering;
}

/** What an intent on a row does: the command to send, a line saying why not, or nothing. */
export function answerAction({ row, draft, intent, via, now, answering }: AnswerInput): AnswerAction | null {
  const open = openAnswer(row);
  if (open === null) return null;
  const current = draftFor(draft, open.request);
  if (current.pending) return null;
  const refuse = (text: string): AnswerAction => ({ type: 'answer-notice', request: open.request, text });
  if (!answering.allowed) return refuse(answering.why ?? 'this popover does not answer prompts');
  const tooLong = tooLongNotice(open);
  if (tooLong !== null) return refuse(tooLong);
  if (via === 'key' && !keysOpen(open, now)) return refuse(GRACE_NOTICE);
  const made = decisionFor(open, current, intent);
  if ('why' in made) return refuse(made.why);
  return { type: 'send-answer', command: { type: 'answer', key: row.key, request: open.request, digest: open.digest, decision: made.decision, via } };
}

/** "Answer in terminal": the waiting hook lets go and the agent's own prompt decides. */
export function releaseAction(row: Row, answering: Answering): AnswerAction | null {
  const open = openAnswer(row);
  if (open === null) return null;
  if (!answering.allowed) return { type: 'answer-notice', request: open.request, text: answering.why ?? 'this popover does not answer prompts' };
  return { type: 'send-answer', command: { type: 'release', key: row.key, request: open.request } };
}

/** A digit on a single-question prompt chooses that option (sending is Ctrl/⌘+Enter, or Send). */
export function digitAction(row: Row, digit: number): AnswerAction | null {
  const open = openAnswer(row);
  const question = open?.prompt === 'question' && open.questions.length === 1 ? open.questions[0] : undefined;
  if (open === null || question === undefined) return null;
  if (digit >= question.options.length)
    return { type: 'answer-notice', request: open.request, text: `no option ${digit + 1}: the options are 1 to ${question.options.length}` };
  return { type: 'answer-choose', request: open.request, question: 0, option: digit, multiple: question.multiple };
}

/** Long commands and edits show their first lines until "show all". */
const SHORT_LINES = 8;
const SHORT_CHARS = 600;

export function shortText(text: string, showAll: boolean): { text: string; cut: boolean } {
  const lines = text.split('\n');
  if (showAll || (lines.length <= SHORT_LINES && text.length <= SHORT_CHARS)) return { text, cut: false };
  const head = lines.slice(0, SHORT_LINES).join('\n');
  return { text: `${head.length > SHORT_CHARS ? head.slice(0, SHORT_CHARS) : head}…`, cut: true };
}

/** The card's command as pieces, each hidden character a token to mark (issue 47 item 2); line breaks stay breaks. */
export function cardPieces(text: string): TextPiece[] {
  return text.split('\n').flatMap((line, index) => (index === 0 ? visiblePieces(line) : [{ text: '\n', hidden: null }, ...visiblePieces(line)]));
}

/** The card's warning when the command holds a hidden character (line breaks aside), else null. */
export function hiddenWarning(text: string): string | null {
  const count = text.split('\n').reduce((sum, line) => sum + hiddenCount(line), 0);
  if (count === 0) return null;
  return `holds ${count} hidden or bidirectional character${count === 1 ? '' : 's'}, marked: it may not run as it reads`;
}

/** The row's words once its prompt left the card (R73), or null. */
export function answeredLine(answer: RowAnswer | null): string | null {
  if (answer?.state === 'answered') return `answered${answer.answer === null ? '' : ` (${answer.answer})`} · waiting for the agent`;
  if (answer?.state === 'elsewhere') return 'answered in the terminal';
  return null;
}
