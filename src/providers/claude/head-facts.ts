// What a Claude transcript's head gave, as the session index keeps it (issue 14): identity, folder,
// branch, titles, the first prompt and the turns interrupted there. Checked when taken back.
import type { HeadCodec } from '../file-index';
import { hasShape, pick } from '../plain-shape';
import { ClaudeLeadFile } from './lead-file';
import { ClaudeTranscript } from './transcript';

const FIELDS = {
  sessionId: 'string?',
  cwd: 'string?',
  branch: 'string?',
  customTitle: 'string?',
  summaryTitle: 'string?',
  firstPrompt: 'string?',
  firstAt: 'number?',
  lastRecordAt: 'number?',
  agentId: 'string?',
} as const;
const TURN = { startedAt: 'number', endedAt: 'number' } as const;

function factsOf(head: ClaudeTranscript): unknown {
  return { ...pick(head, FIELDS), interruptedTurns: head.interruptedTurns };
}

function transcriptOf(facts: unknown): ClaudeTranscript | null {
  if (!hasShape(facts, FIELDS)) return null;
  const turns: unknown = (facts as { interruptedTurns?: unknown }).interruptedTurns;
  if (!Array.isArray(turns)) return null;
  const head = Object.assign(new ClaudeTranscript(), pick(facts, FIELDS));
  for (const turn of turns) {
    if (!hasShape(turn, TURN)) return null;
    head.interruptedTurns.push(pick(turn, TURN));
  }
  return head;
}

/** A subagent's file: the transcript itself. */
export const TRANSCRIPT_HEAD: HeadCodec<ClaudeTranscript> = { facts: factsOf, restore: transcriptOf };

/** A session's file: only its lead's head is read (a sidechain's head names nothing the row shows). */
export const LEAD_FILE_HEAD: HeadCodec<ClaudeLeadFile> = {
  facts: (file) => factsOf(file.lead),
  restore: (facts) => {
    const lead = transcriptOf(facts);
    return lead === null ? null : new ClaudeLeadFile(lead);
  },
};
