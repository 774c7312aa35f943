// What a Pi session file's head gave, as the session index keeps it (issue 14): its header (id,
// folder), its name, its first prompt. Checked when taken back.
import type { FileCodec } from '../file-index';
import { hasShape, pick, withoutEmpty } from '../plain-shape';
import { endingCodec } from '../ending-codec';
import { PiTranscript } from './transcript';

const FIELDS = { sessionId: 'string?', title: 'string?', cwd: 'string?', firstPrompt: 'string?', firstAt: 'number?', lastRecordAt: 'number?' } as const;

/** What the rows take from the end's reading (never its prompts). */
const ENDING = { sessionId: 'string?', title: 'string?', cwd: 'string?', firstAt: 'number?', lastRecordAt: 'number?', answeredAt: 'number?' } as const;

// The end's reading is kept while it names no pending call and no error text (ending-codec.ts).
export const SESSION_HEAD: FileCodec<PiTranscript> = {
  facts: (head) => withoutEmpty(pick(head, FIELDS)),
  restore: (facts) => (hasShape(facts, FIELDS) ? Object.assign(new PiTranscript(), pick(facts, FIELDS)) : null),
  ...endingCodec(ENDING, () => new PiTranscript()),
};
