// What providers hand the engine: facts read from files, registries and hooks, each with the
// time it describes (epoch ms). Nothing here is a status; the engine decides (R13).
import type { Provider } from './vocabulary';

/** A tool call recorded without its result. `category` says which R3 exception applies. */
export interface PendingTool {
  id: string;
  name: string;
  /** Human text for the row ("Bash: npm publish", "asks: Which database?"). */
  detail: string;
  category: 'question' | 'plan' | 'subagent' | 'generic';
  /** Codex only: the call asked for escalated sandbox permissions (R3, `on-request`). */
  escalation: boolean;
}

/**
 * The last status-bearing record of a transcript, as a fact about that record (§11). The
 * engine turns it into an observation; providers never decide the state.
 */
export type TranscriptSignal =
  | { kind: 'prompt'; at: number } // a real prompt, or a task notification that opens a turn
  | { kind: 'tool-result'; at: number }
  | { kind: 'progress'; at: number } // thinking, reasoning, an API retry, an open task
  | {
      kind: 'tool-call';
      at: number;
      pending: PendingTool[];
      /** Codex turn_context approval_policy; null where the provider has none (Claude). */
      approvalPolicy: string | null;
    }
  | { kind: 'assistant-text'; at: number; stop: 'end' | 'tool-use' | 'none' }
  | { kind: 'turn-end'; at: number; failed: boolean; detail: string | null }
  | { kind: 'interrupted'; at: number }
  | { kind: 'api-error'; at: number; detail: string | null }
  /**
   * The provider ended the turn because the account's usage limit was reached (§14, R80): read
   * only from the agent's own error records. `resetsAt` where its record or words give the
   * instant, never guessed; `detail` the agent's words.
   */
  | { kind: 'usage-limit'; at: number; resetsAt: number | null; detail: string | null };

/**
 * A usage window the agent wrote (R83: Codex's `rate_limits`): the share used of a window of
 * `windowMinutes`, resetting at `resetsAt`, as written at `at`.
 */
export interface UsageWindow {
  /** The agent's name for the window (`primary`, `secondary`, `five_hour`…). */
  name: string;
  usedPercent: number;
  windowMinutes: number | null;
  resetsAt: number | null;
  at: number;
}

/** The turn the last signal belongs to. */
export interface TurnEvidence {
  /** The turn's first real prompt. */
  startedAt: number;
  /** The record that closed it, when it is closed. */
  endedAt: number | null;
  /** The provider's own duration figure (turn_duration, task_complete), when written. */
  durationMs: number | null;
}

/** Direct evidence: what the provider itself reported (live registry, hooks, notify). */
export type DirectEvidence =
  | {
      kind: 'registry-status';
      source: string;
      at: number;
      /** The registry's `status`, verbatim; unrecognised values are R6. */
      status: string;
      waitingFor: string | null;
    }
  | {
      kind: 'hook';
      source: string;
      at: number;
      event: HookEvent;
      detail: string | null;
      /** A notification that a prompt waits, not which: it restates a prompt, never answers one. */
      restates?: boolean;
    };

/** Hook events, normalised by the provider (docs/providers.md, issue 6). */
export type HookEvent =
  | 'permission-request' // awaiting approval until any later event or an answering record
  | 'input-request' // an elicitation or question raised through a hook
  | 'mid-turn' // prompt submitted, tool started or finished: holds working for hookWorkingHold
  | 'stop'
  | 'stop-failure'
  | 'session-end'
  | 'idle-notice' // a Notification hook saying the agent is idle: the turn is over, nobody is asked
  | 'settled'; // the agent moved on (a request answered, status changed): what it did is the transcript's to say

/** Whether the provider's live registry says a process is behind the session. */
export type Liveness =
  | { kind: 'unreported' } // no registry entry known (Codex; Claude without a registry file)
  | { kind: 'alive'; pid: number }
  /** The process is gone: its pid is not running or was reused, or (pid null) no process holds the writer's lock of a turn left open. */
  | { kind: 'dead'; source: string; pid: number | null; at: number; why: 'no-process' | 'pid-reused' | 'no-writer' }
  | { kind: 'removed'; source: string; at: number }; // the entry vanished while Lookout watched

/** A subagent transcript, or a background watcher (a shell loop the agent left running). */
export interface ChildEvidence {
  id: string;
  name: string;
  role: 'agent' | 'watcher';
  source: string;
  /** First record: decides which lead turn the child belongs to (R12). */
  startedAt: number;
  /** Newest record of any kind. */
  lastAt: number;
  signal: TranscriptSignal | null;
  /** A direct request made by the child (a hook with the child's id), if any. */
  request: { kind: 'approval' | 'input'; at: number; detail: string } | null;
}

/** The working tree of the session's folder, as `git status` last reported it. */
export type WorkingTree =
  | { kind: 'unknown'; at?: number } // never read (no `at`), or git could not answer at `at`
  | { kind: 'not-a-repo'; at?: number }
  | { kind: 'read'; at: number; fingerprint: string; changedFiles: number };

/** When git was last asked about the folder, whatever it answered; null when never. */
export function treeReadAt(tree: WorkingTree): number | null {
  return tree.at ?? null;
}

/** A program notification raised by an agent hook: an expiring needs-you claim (§5). */
export interface ProgramNotice {
  source: string;
  at: number;
  message: string;
}

export interface SessionEvidence {
  provider: Provider;
  sessionId: string;
  title: string | null;
  cwd: string | null;
  branch: string | null;
  /** Source name of the transcript (the provider descriptor's `transcriptSource`). */
  transcriptSource: string;
  /** Newest record time seen in any of the session's files (never an mtime, R2). */
  lastRecordAt: number | null;
  signal: TranscriptSignal | null;
  turn: TurnEvidence | null;
  direct: DirectEvidence[];
  liveness: Liveness;
  children: ChildEvidence[];
  workingTree: WorkingTree;
  notices: ProgramNotice[];
  /** Lines skipped as malformed or oversized; shown by `explain`. */
  skippedLines: number;
  /**
   * Turns that ended by the user's interrupt (newest last): their children stay dropped even after
   * a new turn starts (R12). Optional: providers that see no interrupts leave it out.
   */
  interruptedTurns?: { startedAt: number; endedAt: number }[];
  /**
   * The newest transcript record that answers a request (a tool result, an interrupt marker, a new
   * prompt), even when later records followed it: it clears an older direct waiting (R8).
   * Optional: without it only the last record can answer.
   */
  answeredAt?: number | null;
  /** The newest usage windows the session's files wrote (R83); optional: most agents write none. */
  usageWindows?: UsageWindow[];
  /** Prompts an answer channel holds for this session (§13), open and recently closed. */
  requests?: AnswerRequest[];
  /**
   * When Lookout first read this evidence while it held a time after that moment (a clock ahead of
   * ours): its times are held there, not pulled up to every beat's now (issue 24).
   */
  seenAt?: number;
}

/** One question of a prompt Lookout can answer: its options by label, as the agent will read them. */
export interface AnswerQuestion {
  question: string;
  header: string | null;
  multiple: boolean;
  options: { label: string; description: string | null }[];
}

/**
 * A prompt waiting on an answer channel the agent itself offers (a blocking hook, a plugin's
 * request), held by a running Lookout (docs/answering.md, R70). The provider reads it from the
 * channel; the engine decides whether it is the prompt the row shows.
 */
export interface AnswerRequest {
  /** Lookout's id for it: every answer names it (R71). */
  id: string;
  /** When the channel brought it (after the hook event that raised the prompt). */
  at: number;
  source: string;
  /** A subagent's prompt: the child it belongs to; null for the lead. */
  agentId: string | null;
  prompt: 'approval' | 'question';
  tool: string;
  /** Exactly what is shown and answered: the command, the path and edit, the patch. */
  text: string;
  /** Characters of the whole input's text not in `text`: answered only in the terminal when above 0. */
  hidden: number;
  /** A digest of the tool and input as shown: an answer must carry the same (R71). */
  digest: string;
  questions: AnswerQuestion[];
  /** The agent's own prompt waits until Lookout answers or lets go (Codex, Qwen): a short, visible wait. */
  serial: boolean;
  /** When the waiting hook gives up by itself and the agent's own prompt decides. */
  deadline: number;
  /** R72's end, fixed by the channel's owner when a row first showed it: the grace counts from when it could be seen (issue 47). */
  keysFrom?: number | null;
  /** Closed: answered from Lookout, answered elsewhere first, let go to the terminal, or timed out. */
  closed: { at: number; how: 'answered' | 'elsewhere' | 'released' | 'expired'; answer: string | null; from: string | null } | null;
}

export function sessionKey(provider: Provider, sessionId: string): string {
  return `${provider}:${sessionId}`;
}
