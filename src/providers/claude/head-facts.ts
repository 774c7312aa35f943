// What a Claude transcript's head gave, and its end's reading when that holds no transcript text,
// as the session index keeps them (issue 14): identity, folder, branch, titles, the first prompt,
// times, the signal's kind. Checked when taken back.
import type { FileCodec } from '../file-index';
import { hasShape, pick, withoutEmpty } from '../plain-shape';
import { signalFrom, spansFrom, storableSignal, turnFrom } from '../reading-shape';
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
/** What an end's reading adds to the rows: its own newest ids, folder, titles and times (never its prompts). */
const ENDING = {
  sessionId: 'string?',
  cwd: 'string?',
  branch: 'string?',
  customTitle: 'string?',
  summaryTitle: 'string?',
  firstAt: 'number?',
  lastRecordAt: 'number?',
  agentId: 'string?',
  answeredAt: 'number?',
} as const;

function factsOf(head: ClaudeTranscript): unknown {
  return withoutEmpty({ ...pick(head, FIELDS), interruptedTurns: head.interruptedTurns });
}

function transcriptOf(facts: unknown): ClaudeTranscript | null {
  if (!hasShape(facts, FIELDS)) return null;
  const turns = spansFrom((facts as { interruptedTurns?: unknown }).interruptedTurns);
  if (turns === undefined) return null;
  const head = Object.assign(new ClaudeTranscript(), pick(facts, FIELDS));
  head.interruptedTurns.push(...turns);
  return head;
}

/**
 * An end's reading, or null when it may not be kept: its signal carries text, or the row would need
 * the end's first prompt (the head found none) — an end's prompts are transcript text.
 */
function readingOf(transcript: ClaudeTranscript, head: ClaudeTranscript | null): unknown {
  if (!storableSignal(transcript.signal) || (transcript.firstPrompt !== null && (head === null || head.firstPrompt === null))) return null;
  return withoutEmpty({ ...pick(transcript, ENDING), interruptedTurns: transcript.interruptedTurns, signal: transcript.signal, turn: transcript.turn });
}

function transcriptFromReading(facts: unknown): ClaudeTranscript | null {
  if (!hasShape(facts, ENDING)) return null;
  const record = facts as { signal?: unknown; turn?: unknown; interruptedTurns?: unknown };
  const signal = signalFrom(record.signal);
  const turn = turnFrom(record.turn);
  const turns = spansFrom(record.interruptedTurns);
  if (signal === undefined || turn === undefined || turns === undefined) return null;
  const transcript = Object.assign(new ClaudeTranscript(), pick(facts, ENDING), { signal, turn });
  transcript.interruptedTurns.push(...turns);
  return transcript;
}

/**
 * The sidechain of a reading taken back without one: never read (only a sidechain the end saw is a
 * child) and never fed (a changed file is read afresh), so one serves them all.
 */
let unusedSidechain: ClaudeTranscript | null = null;
const noSidechain = (): ClaudeTranscript => (unusedSidechain ??= new ClaudeTranscript());

/** A subagent's file: the transcript itself. */
export const TRANSCRIPT_HEAD: FileCodec<ClaudeTranscript> = {
  facts: factsOf,
  restore: transcriptOf,
  tailFacts: readingOf,
  restoreTail: transcriptFromReading,
};

/** A session's file: its lead's readings, and the 1.x inline sidechain's end (a child). */
export const LEAD_FILE_HEAD: FileCodec<ClaudeLeadFile> = {
  // Only the lead's head is read: a sidechain's head names nothing the row shows.
  facts: (file) => factsOf(file.lead),
  restore: (facts) => {
    const lead = transcriptOf(facts);
    return lead === null ? null : new ClaudeLeadFile(lead, noSidechain());
  },
  tailFacts: (file, head) => {
    const lead = readingOf(file.lead, head.lead);
    // A sidechain is a child: no prompt of its is ever shown.
    const sidechain = file.sawSidechain ? readingOf(file.sidechain, file.sidechain) : null;
    return lead === null || (file.sawSidechain && sidechain === null) ? null : withoutEmpty({ lead, sidechain });
  },
  restoreTail: (facts) => {
    const record = facts as { lead?: unknown; sidechain?: unknown } | null;
    if (typeof record !== 'object' || record === null) return null;
    const lead = transcriptFromReading(record.lead);
    const saw = record.sidechain !== undefined;
    const sidechain = saw ? transcriptFromReading(record.sidechain) : noSidechain();
    if (lead === null || sidechain === null) return null;
    const file = new ClaudeLeadFile(lead, sidechain);
    file.sawSidechain = saw;
    return file;
  },
};
