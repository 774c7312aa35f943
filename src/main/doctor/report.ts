// `lookout doctor`'s report: what it found, in the shape `--json` prints (docs/cli.md, "doctor").
// Keys are stable: a bug report pasted today reads the same way next year.

/** Where an agent's folder came from, in resolveRoots' order (src/providers/roots.ts). */
export type { RootSource } from '../../providers/roots';
import type { PartChoice, RootSource } from '../../providers/roots';

export type HooksState = 'installed' | 'not installed' | 'partly installed' | 'out of date' | 'unknown';

export interface AgentHooks {
  state: HooksState;
  /** What `lookout hooks status` says of each file it edits. */
  lines: string[];
}

export interface AgentReport {
  id: string;
  name: string;
  folder: string;
  /** The variable that set the folder (the agent's own, or XDG_DATA_HOME), or null (settings, default). */
  variable: string | null;
  source: RootSource;
  /** How the folder was chosen, as a person reads it: `NAME=/x`, `settings.json roots.<id>`, `default; NAME not set`. */
  from: string;
  /** Folders inside it the agent lets a variable of its own move (empty for most agents): where each is, and the variable (null: inside the folder). */
  parts: PartChoice[];
  found: boolean;
  /** Sessions read from its files and hooks (null where its folder is not found). */
  sessions: number | null;
  /** Null for an agent that offers no hooks. */
  hooks: AgentHooks | null;
}

export interface TrayReport {
  available: boolean;
  /** Why not, in a few words; null when available. */
  why: string | null;
  /** The display seen (`DISPLAY=:0`, `WAYLAND_DISPLAY=wayland-0`, `desktop` on macOS and Windows), or null. */
  display: string | null;
  /** The Electron binary found in node_modules, or null. */
  electron: string | null;
}

export interface NotificationsReport {
  /** The program that shows Lookout's notifications here. */
  program: string;
  /** Whether it is installed; null where it ships inside node-notifier (asked with --notify). */
  available: boolean | null;
  /** Whether notify-send takes actions (Open, Mute, Mark reviewed); null elsewhere. */
  actions: boolean | null;
  /** Only with --notify: whether the test notification was shown. */
  sent?: boolean;
  /** Only with --notify, when it was not: why. */
  error?: string;
}

export type FileState = 'ok' | 'absent' | 'kept aside' | 'warning';

export interface StoredFile {
  path: string;
  state: FileState;
  /** What loading it said (a file kept aside, a field that fell back). */
  lines: string[];
}

export interface StateReport {
  home: string;
  /** LOOKOUT_HOME when it set the folder, else null (the platform's default). */
  variable: string | null;
  exists: boolean;
  writable: boolean;
  settings: StoredFile;
  store: StoredFile;
}

type HostLinkState = 'connected' | 'connecting' | 'unreachable' | 'failed';

export interface HostReport {
  name: string;
  destination: string;
  state: HostLinkState;
  reason: string | null;
  sessions: number | null;
  /** The Lookout there, as its feed's handshake said: a version, "before 0.1.0", or null when not connected. */
  lookout: string | null;
}

/** The phone channels (issue 49): their labels (no secret whole) and last success or error. */
export interface PhoneReport {
  mode: 'away' | 'always' | null;
  /** phone.json that cannot be used, or null. */
  problem: string | null;
  channels: { id: string; label: string; health: string; failing: boolean }[];
}

export interface Problem {
  what: string;
  hint: string;
}

export interface DoctorReport {
  lookout: { version: string };
  node: { version: string };
  platform: { os: NodeJS.Platform; arch: string };
  agents: AgentReport[];
  /** Lines the agents' files gave while being read (skipped records, unreadable files). */
  reading: string[];
  tray: TrayReport;
  notifications: NotificationsReport;
  state: StateReport;
  hosts: HostReport[];
  phone: PhoneReport;
  problems: Problem[];
}
