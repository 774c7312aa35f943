// The prompt of the selected row, answerable from here (§13): the exact command or edit (as text,
// never markup), Allow and Deny with an optional message, a question's options, and "Answer in
// terminal" where the agent's own prompt waits for Lookout. It only renders; App.tsx acts.
import type { AnswerDraft, AnswerIntent, Answering, OpenAnswer } from '../answer';
import type { HiddenKind } from '../../engine/visible-text';
import { visibleText } from '../../engine/visible-text';
import { cardPieces, hiddenWarning, shortText, tooLongNotice } from '../answer';

interface Props {
  open: OpenAnswer;
  draft: AnswerDraft;
  answering: Answering;
  /** How keys are written on this system ("⌘" or "Ctrl+"). */
  mod: string;
  onIntent: (intent: AnswerIntent, via: 'key' | 'click') => void;
  onRelease: () => void;
  onChoose: (question: number, option: number, multiple: boolean) => void;
  onMessage: (text: string) => void;
  onShowAll: (on: boolean) => void;
}

/** What a mark on the command says when pointed at. */
const KIND_WORDS: Readonly<Record<HiddenKind, string>> = {
  control: 'control character',
  bidi: 'bidirectional control: reorders the text shown',
  invisible: 'invisible character',
  blank: 'unusual blank',
};

/** A button pressed with Enter or Space reports no pointer clicks (`detail` 0): that is a key (R72). */
const viaOf = (event: MouseEvent): 'key' | 'click' => (event.detail === 0 ? 'key' : 'click');

export function AnswerCard({ open, draft, answering, mod, onIntent, onRelease, onChoose, onMessage, onShowAll }: Props) {
  const shown = shortText(open.text, draft.showAll);
  const busy = draft.pending;
  const approval = open.prompt === 'approval';
  const tooLong = tooLongNotice(open);
  const warning = hiddenWarning(open.text);
  return (
    <section class="answer" aria-label="Answer the prompt" data-answer-request={open.request} data-answer-prompt={open.prompt} data-keys-from={open.keysFrom}>
      <div class="answer-head">{approval ? `Allow ${visibleText(open.tool)}?` : 'The agent asks:'}</div>
      {approval && (
        <>
          {warning !== null && (
            <div class="answer-warning" role="alert">
              {warning}
            </div>
          )}
          {/* Every hidden character a marked token: the command reads as it runs (issue 47 item 2). */}
          <pre class="answer-text" dir="ltr">
            {cardPieces(shown.text).map((piece, index) =>
              piece.hidden === null ? (
                piece.text
              ) : (
                <mark class="answer-hidden" key={index} data-hidden={piece.hidden} title={KIND_WORDS[piece.hidden]}>
                  {piece.text}
                </mark>
              ),
            )}
          </pre>
          {(shown.cut || draft.showAll) && (
            <button type="button" class="link" onClick={() => onShowAll(!draft.showAll)}>
              {draft.showAll ? 'show less' : 'show all'}
            </button>
          )}
        </>
      )}
      {tooLong !== null && (
        <div class="answer-why answer-cut" role="note">
          {tooLong}
        </div>
      )}
      {open.questions.map((question, index) => (
        // biome-ignore lint/a11y/useSemanticElements: a row of option buttons, not a form (a fieldset would bring its border and legend)
        <div class="answer-question" role="group" aria-label={question.question} key={`${index}:${question.question}`}>
          <div class="answer-ask">
            {question.header !== null && <span class="answer-header">{question.header}</span>}
            {question.question}
            {question.multiple && <span class="answer-multiple"> (choose any)</span>}
          </div>
          <div class="answer-options">
            {question.options.map((option, number) => (
              <button
                type="button"
                key={option.label}
                class="answer-option"
                aria-pressed={(draft.chosen[index] ?? []).includes(number)}
                title={option.description ?? undefined}
                disabled={!answering.allowed || busy}
                onClick={() => onChoose(index, number, question.multiple)}
              >
                <span class="answer-number">{number + 1}</span> {option.label}
              </button>
            ))}
          </div>
        </div>
      ))}
      {tooLong !== null ? (
        open.serial && (
          <div class="answer-actions">
            <button type="button" disabled={busy} onClick={onRelease}>
              Answer in terminal
            </button>
          </div>
        )
      ) : answering.allowed ? (
        <>
          <div class="answer-actions">
            <button type="button" class="answer-primary" disabled={busy} onClick={(event) => onIntent(approval ? 'allow' : 'send', viaOf(event))}>
              {approval ? 'Allow' : 'Send'}
            </button>
            <input
              type="text"
              class="answer-message"
              aria-label="Message for the agent (with Deny)"
              placeholder="why not (optional)"
              maxLength={2000}
              value={draft.message}
              disabled={busy}
              onInput={(event) => onMessage(event.currentTarget.value)}
              onKeyDown={(event) => {
                // Enter in the message denies with it: a key press, so R72's grace applies.
                if (event.key === 'Enter' && !event.isComposing) {
                  event.preventDefault();
                  onIntent('deny', 'key');
                }
              }}
            />
            <button type="button" disabled={busy} onClick={(event) => onIntent('deny', viaOf(event))}>
              Deny
            </button>
          </div>
          {open.serial && (
            <div class="answer-actions">
              <button type="button" disabled={busy} onClick={onRelease}>
                Answer in terminal
              </button>
            </div>
          )}
          <div class="answer-keys">{`${mod}↩ ${approval ? 'allow' : 'send'} · ${mod}⌫ deny${open.questions.length === 1 ? ` · 1–${Math.min(9, open.questions[0]?.options.length ?? 9)} choose` : ''}`}</div>
        </>
      ) : (
        <div class="answer-why">{answering.why ?? 'this popover does not answer prompts'}</div>
      )}
      <div class="answer-notice" role="status">
        {draft.notice}
      </div>
    </section>
  );
}
