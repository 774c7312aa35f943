// What a Copilot events.jsonl's head gave, as the session index keeps it (issue 14): the session's
// start (identity, folder, branch) and its first prompt. Checked when taken back.
import type { FileCodec } from '../file-index';
import { hasShape, pick, withoutEmpty } from '../plain-shape';
import { CopilotEvents } from './events';

const FIELDS = {
  sessionId: 'string?',
  cwd: 'string?',
  branch: 'string?',
  version: 'string?',
  firstPrompt: 'string?',
  firstAt: 'number?',
  lastRecordAt: 'number?',
} as const;

// Its end is always read: its reading (children, a pending approval) is not kept.
export const EVENTS_HEAD: FileCodec<CopilotEvents> = {
  facts: (head) => withoutEmpty(pick(head, FIELDS)),
  restore: (facts) => (hasShape(facts, FIELDS) ? Object.assign(new CopilotEvents(), pick(facts, FIELDS)) : null),
};
