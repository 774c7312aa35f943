// What a Gemini chat file's head gave, as the session index keeps it (issue 14): the session's
// first line (identity, kind) and its first prompt. Checked when taken back.
import type { FileCodec } from '../file-index';
import { hasShape, pick, withoutEmpty } from '../plain-shape';
import { endingCodec } from '../ending-codec';
import { GeminiChat } from './chat';

const FIELDS = { sessionId: 'string?', kind: 'string?', firstPrompt: 'string?', summary: 'string?', firstAt: 'number?', lastRecordAt: 'number?' } as const;

/** What the rows take from the end's reading (never its prompts). */
const ENDING = { sessionId: 'string?', kind: 'string?', summary: 'string?', firstAt: 'number?', lastRecordAt: 'number?', answeredAt: 'number?' } as const;

// The end's reading is kept while it names no pending call and no error text (ending-codec.ts).
export const CHAT_HEAD: FileCodec<GeminiChat> = {
  facts: (head) => withoutEmpty(pick(head, FIELDS)),
  restore: (facts) => (hasShape(facts, FIELDS) ? Object.assign(new GeminiChat(), pick(facts, FIELDS)) : null),
  ...endingCodec(ENDING, () => new GeminiChat()),
};
