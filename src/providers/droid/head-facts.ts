// What a Droid session file's head gave, as the session index keeps it (issue 14): its first line
// (id, title, folder) and its first prompt. Checked when taken back.
import type { FileCodec } from '../file-index';
import { hasShape, pick, withoutEmpty } from '../plain-shape';
import { DroidTranscript } from './transcript';

const FIELDS = { sessionId: 'string?', title: 'string?', cwd: 'string?', firstPrompt: 'string?', firstAt: 'number?', lastRecordAt: 'number?' } as const;

// Its end is always read: its reading (a pending call, the open turn) is not kept.
export const TRANSCRIPT_HEAD: FileCodec<DroidTranscript> = {
  facts: (head) => withoutEmpty(pick(head, FIELDS)),
  restore: (facts) => (hasShape(facts, FIELDS) ? Object.assign(new DroidTranscript(), pick(facts, FIELDS)) : null),
};
