// What one provider tells the rest of Lookout about itself: one descriptor per provider folder,
// listed once in the registry (./index.ts). Nothing outside a provider's folder and the registry
// names a provider: main, the tray and the popover loop over the descriptors.
import type { HookReading } from './hooks/events';
import type { JsonRecord } from './jsonl/parse-record';
import type { EvidenceSource } from './source';
import type { SessionIndexPort } from './session-index';
import type { AnswerDescriptor } from './answer-hook';

/** A folder (or file) the runtime watches, how deep below it, and which files there matter. */
export interface WatchTarget {
  path: string;
  depth: number;
  /** The file names its provider reads (folders are always watched, for new sessions). */
  files: RegExp;
}

/** One hook event Lookout adds to an agent's hooks file. */
export interface HookSpec {
  event: string;
  /** Tool events take a matcher ("*" = every tool); others none. */
  matcher: string | null;
}

/**
 * A program the agent runs on its events: `lookout hook <name>` (or the sh shim with the same
 * word). Its lines land in the spool under the provider's id, on one channel.
 */
export interface HookEntry {
  /** The word after `hook`: letters, digits and dashes (it is written into a shell script). */
  name: string;
  /** `hook` (agent hooks) or `notify` (a notify program): the spool line's channel. */
  channel: 'hook' | 'notify';
  /** Where the agent hands the JSON: on standard input, or as the last argument. */
  payload: 'stdin' | 'last-argument';
}

/** One change `hooks install` makes in an agent's files (and `hooks uninstall` takes out exactly). */
export type HookEdit =
  /** Lookout's handler added under `hooks.<Event>` of a JSON settings file, beside the user's. */
  | { kind: 'json-hooks'; path: string; events: readonly HookSpec[]; entry: string; extra: Readonly<Record<string, unknown>> }
  /** A top-level `notify = [...]` in a TOML config, only when the user has none. */
  | { kind: 'toml-notify'; path: string; entry: string }
  /**
   * A file of Lookout's own in the agent's folders (a plugin, a hooks file the agent merges with
   * others): written whole, never over a file that is not Lookout's, removed with any folders it made.
   */
  | { kind: 'own-file'; path: string; text: string; what: string };

/** What a provider's `edits` may use: the command an agent runs, the spool, the user's environment. */
export interface HookPlaces {
  /** The command line that runs one hook entry (the sh shim, or Node with the CLI on Windows). */
  command(entry: string): string;
  /** Whether that command line is for PowerShell (Windows) rather than sh. */
  windows: boolean;
  /** Lookout's spool folder, for a plugin that appends to it in-process. */
  spoolFolder: string;
  /** Lookout's run folder (the answer channel's socket and token), for a plugin that answers in-process. */
  runFolder: string;
  /** The user's environment (an agent's config folder may follow XDG_CONFIG_HOME). */
  env: Readonly<Record<string, string | undefined>>;
  /** The user's home folder. */
  userHome: string;
}

interface HookDescriptor {
  entries: readonly HookEntry[];
  /** The files install edits (under the provider's root, or the agent's config folder). */
  edits(root: string, places: HookPlaces): HookEdit[];
  /**
   * What one spool line of this provider says: its session, folder, subagent and fact. Each
   * provider reads its own payloads: only one that says the user is asked is a request.
   */
  read(payload: JsonRecord, channel: 'hook' | 'notify'): HookReading;
  /** What the user must still do after install, if anything (said once, after the edits). */
  afterInstall: string | null;
  /** What Lookout sees without the hooks, and what they add (`hooks status`). */
  sees: { without: string; with: string };
}

export interface ProviderDescriptor {
  /** The id in session keys, `--provider`, the spool and the settings: lower-case, stable. */
  id: string;
  /** The product's name ("Claude Code"): the settings view, `hooks status`. */
  name: string;
  /** A short name for rows and notifications ("Claude"). */
  shortName: string;
  /**
   * Where the agent keeps its files: its own variable, else (for agents that follow XDG) a folder
   * under $XDG_DATA_HOME, else a folder under the home directory.
   */
  root: {
    env: string;
    defaultFolder: string;
    xdgDataFolder?: string;
    /** The folder under the variable's path, for an agent whose variable names a home, not its folder. */
    envSubfolder?: string;
    /** The agent's further variables for the same folder, tried after `env` in its own order (Cline's CLINE_DIR, its `data`). */
    alsoEnv?: readonly { env: string; subfolder?: string }[];
    /** Whether the agent reads a leading `~` in its variables as the home, and a relative path from its folder (Qwen). */
    expandsTilde?: boolean;
    /** Folders inside the root that a variable of the agent's own moves elsewhere (Cline's db and sessions, Qwen's projects). */
    parts?: readonly { folder: string; env: string; subfolder?: string }[];
  };
  /** What the runtime watches under the root. */
  watch(root: string): WatchTarget[];
  /**
   * The provider's evidence source over its root; `watching` when a runtime watches it live;
   * `index`, what earlier runs learned of its files (issue 14).
   */
  createSource(root: string, options: { watching: boolean; index: SessionIndexPort }): EvidenceSource;
  /** The source name of its transcript evidence (a session known only from hooks carries it too). */
  transcriptSource: string;
  /** Every evidence source name it produces (explain and the docs list them). */
  sources: readonly string[];
  /** The argv that resumes one of its sessions in its folder (never a shell string). */
  resume(sessionId: string): string[];
  /**
   * The files a session's own process holds open while it runs, for an agent that records no pid
   * (`open` finds the process, then its terminal, by them: issue 15).
   */
  sessionFiles?(root: string, sessionId: string): string[];
  /** Its opt-in hooks, or null when it has none. */
  hooks: HookDescriptor | null;
  /** Whether and how its prompts can be answered from Lookout (§13, issue 23). */
  answer: AnswerDescriptor;
}
