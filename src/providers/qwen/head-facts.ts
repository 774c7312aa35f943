// What a Qwen chat file's head gave, as the session index keeps it (issue 14): the session, its
// folder and first prompt, the title if the head held one. Checked when taken back.
import type { FileCodec } from '../file-index';
import { hasShape, pick, withoutEmpty } from '../plain-shape';
import { endingCodec } from '../ending-codec';
import { QwenChat } from './chat';

const FIELDS = {
  sessionId: 'string?',
  cwd: 'string?',
  version: 'string?',
  customTitle: 'string?',
  firstPrompt: 'string?',
  firstAt: 'number?',
  lastRecordAt: 'number?',
} as const;

/** What the rows take from the end's reading (never its prompts). */
const ENDING = { sessionId: 'string?', cwd: 'string?', customTitle: 'string?', firstAt: 'number?', lastRecordAt: 'number?', answeredAt: 'number?' } as const;

// The end's reading is kept while it names no pending call and no error text (ending-codec.ts).
export const CHAT_HEAD: FileCodec<QwenChat> = {
  facts: (head) => withoutEmpty(pick(head, FIELDS)),
  restore: (facts) => (hasShape(facts, FIELDS) ? Object.assign(new QwenChat(), pick(facts, FIELDS)) : null),
  ...endingCodec(ENDING, () => new QwenChat()),
};
