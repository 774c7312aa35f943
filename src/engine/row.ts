// A row exactly as cli.md's `status --json` describes a session (schema version 1).
import type { ChildLiveness, ClaimKind, Confidence, Provider, Reason, ReviewState, State, Workflow, Band, Tone } from './vocabulary';
import type { AttentionSummary } from './triage';
import type { AnswerQuestion } from './evidence';
import { isCounted, toneOf } from './triage';

export const SCHEMA_VERSION = 1;

/** §13 on a row: the prompt Lookout can answer, an answer awaiting the agent, or why not (extra in schema 1). */
export type RowAnswer =
  | {
      state: 'open';
      /** The id an answer names (R71), and the digest of what is shown. */
      request: string;
      digest: string;
      prompt: 'approval' | 'question';
      tool: string;
      /** The exact command, edit or patch, as the agent will run it (cut where `hidden` says). */
      text: string;
      /** Characters of the text not shown (issue 47): such a prompt is answered only in the terminal. */
      hidden: number;
      questions: AnswerQuestion[];
      since: string;
      /** R72: key presses answer only from then on (a click on the card may before). */
      keysFrom: string;
      /** The agent's own prompt waits for Lookout (Codex): "Answer in terminal" lets it go. */
      serial: boolean;
      deadline: string;
    }
  | { state: 'answered'; request: string; answer: string | null; from: string | null; at: string }
  | { state: 'elsewhere'; request: string; at: string }
  | { state: 'unavailable'; why: string };

export interface Row {
  /** Local rows: `<provider>:<id>`; a remote host's: `<host>:<provider>:<id>`. */
  key: string;
  /** Extra (schema 1 allows additions): the host the session lives on, null on this machine. */
  host: string | null;
  provider: Provider;
  sessionId: string;
  title: string | null;
  cwd: string | null;
  branch: string | null;
  lastActivityAt: string | null;
  observed: { state: State; reason: Reason; detail: string | null; source: string; confidence: Confidence; at: string | null };
  children: { liveness: ChildLiveness; live: number };
  review: { state: ReviewState; by: string | null; at: string | null; newActivitySince: boolean };
  workflow: Workflow;
  claim: { kind: ClaimKind; since: string; expiresAt: string | null; ambiguous: boolean; detail: string | null } | null;
  muted: { until: string | null } | null;
  historical: boolean;
  triageRank: number;
  /** Extra (schema 1 allows additions): the row's triage band (R31), what readers group and count by. */
  band: Band;
  /** Extra (schema 1 allows additions): an idle row quiet for idleStaleAfter is shown dimmed. */
  idleStale: boolean;
  answer: RowAnswer | null;
  /** Extra (issue 46): a row a usage limit stopped, when the agent said it resets (R80); null otherwise. */
  resetsAt: string | null;
}

/** R83: the newest usage windows one provider wrote (on one machine), as `status --json` prints them. */
export interface UsageLimits {
  provider: Provider;
  /** The machine the windows were read on; null for this one. */
  host: string | null;
  /** The session whose file wrote them. */
  key: string;
  windows: { name: string; usedPercent: number; windowMinutes: number | null; resetsAt: string | null; at: string }[];
}

export interface Snapshot {
  schemaVersion: number;
  now: string;
  /** R32's count and level, plus the counts per class a reader shows (extras in schema 1). */
  attention: AttentionSummary;
  sessions: Row[];
  /** Extra (issue 46): the newest usage window per provider whose reset is still ahead (R83). */
  limits: UsageLimits[];
}

/** The widest range a JavaScript date can print. */
const MAX_TIME = 8.64e15;

/** The last time printed: a row prints the same instant several times (its activity, its observation). */
let lastMs = Number.NaN;
let lastIso = '';

/** ISO-8601 with milliseconds; a time outside what a date can hold is clamped, never thrown on. */
export function iso(ms: number): string {
  if (ms === lastMs) return lastIso;
  lastIso = new Date(Number.isFinite(ms) ? Math.max(-MAX_TIME, Math.min(MAX_TIME, ms)) : 0).toISOString();
  lastMs = ms;
  return lastIso;
}

export function isoOrNull(ms: number | null): string | null {
  return ms === null ? null : iso(ms);
}

/** The project folder a person recognises: the last segment of cwd. */
export function projectName(cwd: string | null): string | null {
  if (cwd === null) return null;
  const parts = cwd.split(/[\\/]+/).filter((part) => part.length > 0);
  return parts[parts.length - 1] ?? cwd;
}

/** R32 for a published row: does it count toward the attention badge? */
export function rowCounted(row: Row): boolean {
  return isCounted({ band: row.band, muted: row.muted !== null, historical: row.historical, workflow: row.workflow });
}

/** The one colour meaning of a published row's mark. */
export function rowTone(row: Row): Tone {
  return toneOf(row.band, row.workflow);
}
