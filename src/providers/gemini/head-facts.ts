// What a Gemini chat file's head gave, as the session index keeps it (issue 14): the session's
// first line (identity, kind) and its first prompt. Checked when taken back.
import type { FileCodec } from '../file-index';
import { hasShape, pick, withoutEmpty } from '../plain-shape';
import { GeminiChat } from './chat';

const FIELDS = { sessionId: 'string?', kind: 'string?', firstPrompt: 'string?', summary: 'string?', firstAt: 'number?', lastRecordAt: 'number?' } as const;

// Its end is always read: its reading (a pending call, a cancel awaiting its `$set`) is not kept.
export const CHAT_HEAD: FileCodec<GeminiChat> = {
  facts: (head) => withoutEmpty(pick(head, FIELDS)),
  restore: (facts) => (hasShape(facts, FIELDS) ? Object.assign(new GeminiChat(), pick(facts, FIELDS)) : null),
};
