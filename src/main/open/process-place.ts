// Where a session's process runs (issue 15): its ancestors by name, the terminal variables it
// inherited, and its controlling terminal. The terminal table (terminals.ts) reads this to focus
// the very window, tab or pane that holds the agent. Values come from another process: each is
// checked by the entry that uses it before it goes into an argv.

/** The variables terminals and multiplexers set in their children, and nothing else of the environment. */
const PLACE_VARIABLES = [
  'TMUX',
  'TMUX_PANE',
  'STY',
  'WINDOW',
  'KITTY_WINDOW_ID',
  'KITTY_LISTEN_ON',
  'WEZTERM_PANE',
  'WEZTERM_UNIX_SOCKET',
  'TERM_PROGRAM',
  'ITERM_SESSION_ID',
  'TERM_SESSION_ID',
  'KONSOLE_DBUS_SERVICE',
  'KONSOLE_DBUS_WINDOW',
  'KONSOLE_DBUS_SESSION',
  'GNOME_TERMINAL_SCREEN',
] as const;

export type PlaceVariable = (typeof PLACE_VARIABLES)[number];

export interface ProcessPlace {
  pid: number;
  /** The process and its ancestors, nearest first, each with its command name. */
  chain: { pid: number; name: string }[];
  /** Its terminal variables (only those of PLACE_VARIABLES it has). */
  env: Partial<Record<PlaceVariable, string>>;
  /** Its controlling terminal (/dev/pts/3, /dev/ttys004), when it has one. */
  tty: string | null;
}

const WANTED: ReadonlySet<string> = new Set(PLACE_VARIABLES);
/** A value longer than this is no terminal's id or socket: dropped. */
const MAX_VALUE = 1024;

/** The terminal variables of a NUL-separated environment block (/proc/<pid>/environ). */
export function placeVariables(block: string): Partial<Record<PlaceVariable, string>> {
  const env: Partial<Record<PlaceVariable, string>> = {};
  for (const entry of block.split('\0')) {
    const equals = entry.indexOf('=');
    if (equals <= 0) continue;
    const name = entry.slice(0, equals);
    const value = entry.slice(equals + 1);
    if (WANTED.has(name) && value.length <= MAX_VALUE) env[name as PlaceVariable] = value;
  }
  return env;
}

/**
 * The terminal variables in `ps -E` output (macOS prints the command, then NAME=value words): only
 * values without spaces can be told apart, which every variable of PLACE_VARIABLES is.
 */
export function placeVariablesFromPs(line: string): Partial<Record<PlaceVariable, string>> {
  return placeVariables(line.trim().split(/\s+/).join('\0'));
}

/** A controlling terminal's device path as `ps -o tty=` names it ("ttys004", "pts/3"); null for none ("??", "?"). */
export function ttyFromPs(name: string): string | null {
  const trimmed = name.trim();
  if (!/^(ttys\d{1,4}|pts\/\d{1,6}|tty\w{1,8})$/.test(trimmed)) return null;
  return `/dev/${trimmed}`;
}

/** A descriptor's link target, when it is a terminal device (/proc/<pid>/fd/0). */
export function ttyFromLink(target: string): string | null {
  return /^\/dev\/(pts\/\d{1,6}|tty\w{1,8})$/.test(target) ? target : null;
}
