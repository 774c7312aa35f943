// The terminals Lookout can focus (issue 15): one entry each, asked in order whether the session's
// process runs in it and, if so, the argv that brings that very window, tab or pane forward.
// Every value from the process (ids, sockets, ttys) is checked here before it reaches an argv;
// scripts are fixed text, the tty passed as their argument. docs/open.md lists what each can do.
import type { PlaceVariable, ProcessPlace } from './process-place';

export interface FocusStep {
  argv: string[];
  cwd: string | null;
  /** Variables the command needs beyond Lookout's own (WezTerm finds its socket by one). */
  env?: Record<string, string>;
}

export type TerminalId = 'tmux' | 'screen' | 'kitty' | 'wezterm' | 'iterm2' | 'terminal-app' | 'konsole' | 'gnome-terminal' | 'vscode' | 'other';

export interface FocusContext {
  platform: NodeJS.Platform;
  has(command: string): boolean;
  /** Lookout runs in an X11 session (DISPLAY set): xdotool can raise a window there. */
  x11: boolean;
  /** The session's folder, when it exists here. */
  cwd: string | null;
  /** tmux panes with the pid of the process each runs, or null without tmux. */
  tmuxPanes(): { paneId: string; panePid: number }[] | null;
}

/** What an entry made of the place: not its terminal, its terminal but not focusable (why), or the steps. */
type EntryResult = { kind: 'not-here' } | { kind: 'cannot'; why: string } | { kind: 'focus'; steps: FocusStep[]; note: string | null; pane?: string };

interface TerminalEntry {
  id: TerminalId;
  name: string;
  focus(place: ProcessPlace, context: FocusContext): EntryResult;
}

const NOT_HERE: EntryResult = { kind: 'not-here' };
const cannot = (why: string): EntryResult => ({ kind: 'cannot', why });
const focus = (steps: FocusStep[], note: string | null = null): EntryResult => ({ kind: 'focus', steps, note });

/** A variable's value when it matches `pattern` (anchored by the caller). */
function valid(place: ProcessPlace, name: PlaceVariable, pattern: RegExp): string | null {
  const value = place.env[name];
  return value !== undefined && pattern.test(value) ? value : null;
}

const inChain = (place: ProcessPlace, names: readonly string[]): { pid: number; name: string } | undefined =>
  place.chain.find((item) => names.includes(item.name));

/** The window of the process `pid` raised by xdotool (X11 only): for terminals with no interface of their own. */
function raise(pid: number, context: FocusContext): FocusStep[] | null {
  if (!context.x11 || !context.has('xdotool')) return null;
  return [{ argv: ['xdotool', 'search', '--onlyvisible', '--pid', String(pid), 'windowactivate'], cwd: null }];
}

// AppleScript run by osascript with the tty as its argument: the script text never changes.
const ITERM_SCRIPT = [
  'on run argv',
  'set wanted to item 1 of argv',
  'tell application "iTerm2"',
  'repeat with aWindow in windows',
  'repeat with aTab in tabs of aWindow',
  'repeat with aSession in sessions of aTab',
  'if tty of aSession is wanted then',
  'select aWindow',
  'tell aTab to select',
  'tell aSession to select',
  'activate',
  'return "focused"',
  'end if',
  'end repeat',
  'end repeat',
  'end repeat',
  'end tell',
  'error "no iTerm2 session on " & wanted',
  'end run',
];

const TERMINAL_APP_SCRIPT = [
  'on run argv',
  'set wanted to item 1 of argv',
  'tell application "Terminal"',
  'repeat with aWindow in windows',
  'repeat with aTab in tabs of aWindow',
  'if tty of aTab is wanted then',
  'set selected of aTab to true',
  'set index of aWindow to 1',
  'activate',
  'return "focused"',
  'end if',
  'end repeat',
  'end repeat',
  'end tell',
  'error "no Terminal tab on " & wanted',
  'end run',
];

function osascript(lines: readonly string[], tty: string): FocusStep {
  return { argv: ['osascript', ...lines.flatMap((line) => ['-e', line]), tty], cwd: null };
}

const MAC_TTY = /^\/dev\/ttys\d{1,4}$/;
const VSCODE_CLIS: Record<string, string> = { code: 'code', 'code-insiders': 'code-insiders', codium: 'codium', cursor: 'cursor', windsurf: 'windsurf' };
/** Terminals with no interface for focusing one of their windows from outside: raised whole where X11 allows. */
const OTHER_TERMINALS = [
  'xterm',
  'alacritty',
  'foot',
  'urxvt',
  'rxvt',
  'xfce4-terminal',
  'terminator',
  'tilix',
  'ghostty',
  'st',
  'lxterminal',
  'mate-terminal',
  'qterminal',
  'sakura',
  'terminology',
];
/** Each terminal's own process names, as /proc or ps shows them. */
const PROCESS_NAMES: Record<Exclude<TerminalId, 'tmux' | 'other'>, readonly string[]> = {
  screen: ['screen', 'SCREEN'],
  kitty: ['kitty'],
  wezterm: ['wezterm-gui', 'wezterm'],
  iterm2: ['iTerm2'],
  'terminal-app': ['Terminal'],
  konsole: ['konsole'],
  'gnome-terminal': ['gnome-terminal-', 'gnome-terminal-server', 'gnome-terminal'],
  vscode: Object.keys(VSCODE_CLIS),
};
const ALL_NAMES: readonly string[] = [...Object.values(PROCESS_NAMES).flat(), ...OTHER_TERMINALS];

/**
 * Whether another terminal's process sits nearer the session than `id`'s own (or is there and
 * `id`'s is not): then `id`'s variables were only inherited (an xterm started from a kitty shell
 * still carries KITTY_WINDOW_ID), and the nearer terminal holds the session.
 */
function inheritedOnly(place: ProcessPlace, id: Exclude<TerminalId, 'tmux' | 'other'>): boolean {
  const own = PROCESS_NAMES[id];
  for (const item of place.chain) {
    if (own.includes(item.name)) return false;
    if (ALL_NAMES.includes(item.name)) return true;
  }
  return false;
}

/** A macOS terminal found by its TERM_PROGRAM or an ancestor's name, focused by the session's tty through AppleScript. */
function macTerminal(id: TerminalId, name: string, program: string, app: string, script: readonly string[]): TerminalEntry {
  return {
    id,
    name,
    focus(place, context) {
      if (context.platform !== 'darwin' || (place.env.TERM_PROGRAM !== program && inChain(place, [app]) === undefined)) return NOT_HERE;
      if (place.tty === null || !MAC_TTY.test(place.tty)) return cannot('the session has no terminal device to look for');
      return focus([osascript(script, place.tty)]);
    },
  };
}

const TERMINALS: readonly TerminalEntry[] = [
  {
    id: 'tmux',
    name: 'tmux',
    // First: a multiplexer inside a terminal window is the more exact place.
    focus(place, context) {
      const ancestors = new Set(place.chain.map((item) => item.pid));
      const pane = context.tmuxPanes()?.find((item) => ancestors.has(item.panePid))?.paneId;
      if (pane === undefined) return NOT_HERE;
      return {
        kind: 'focus',
        steps: [
          { argv: ['tmux', 'select-window', '-t', pane], cwd: null },
          { argv: ['tmux', 'select-pane', '-t', pane], cwd: null },
          // Best effort: there may be no client attached to switch.
          { argv: ['tmux', 'switch-client', '-t', pane], cwd: null },
        ],
        note: null,
        pane,
      };
    },
  },
  {
    id: 'screen',
    name: 'GNU screen',
    focus(place, context) {
      const session = valid(place, 'STY', /^\d{1,9}\.[\w.-]{1,200}$/);
      const window = valid(place, 'WINDOW', /^\d{1,4}$/);
      if (session === null || window === null) return NOT_HERE;
      if (!context.has('screen')) return cannot('screen is not on PATH');
      // Selects the window in that session; the terminal showing it is not raised (screen cannot tell which it is).
      return focus(
        [{ argv: ['screen', '-S', session, '-X', 'select', window], cwd: null }],
        'screen selected the window; the terminal attached to it is not raised',
      );
    },
  },
  {
    id: 'kitty',
    name: 'kitty',
    focus(place, context) {
      const window = valid(place, 'KITTY_WINDOW_ID', /^\d{1,9}$/);
      if (window === null) return NOT_HERE;
      const socket = valid(place, 'KITTY_LISTEN_ON', /^(unix:[@/][^\0\n]{1,200}|tcp:[\w.-]{1,100}:\d{1,5})$/);
      if (socket === null) return cannot('kitty was started without remote control listening (allow_remote_control and listen_on in kitty.conf)');
      if (!context.has('kitty')) return cannot('kitty is not on PATH');
      return focus([{ argv: ['kitty', '@', '--to', socket, 'focus-window', '--match', `id:${window}`], cwd: null }]);
    },
  },
  {
    id: 'wezterm',
    name: 'WezTerm',
    focus(place, context) {
      const pane = valid(place, 'WEZTERM_PANE', /^\d{1,9}$/);
      if (pane === null) return NOT_HERE;
      if (!context.has('wezterm')) return cannot('wezterm is not on PATH');
      const socket = valid(place, 'WEZTERM_UNIX_SOCKET', /^\/[^\0\n]{1,300}$/);
      return focus([
        { argv: ['wezterm', 'cli', 'activate-pane', '--pane-id', pane], cwd: null, ...(socket === null ? {} : { env: { WEZTERM_UNIX_SOCKET: socket } }) },
      ]);
    },
  },
  macTerminal('iterm2', 'iTerm2', 'iTerm.app', 'iTerm2', ITERM_SCRIPT),
  macTerminal('terminal-app', 'Terminal (macOS)', 'Apple_Terminal', 'Terminal', TERMINAL_APP_SCRIPT),
  {
    id: 'konsole',
    name: 'Konsole',
    focus(place, context) {
      const service = valid(place, 'KONSOLE_DBUS_SERVICE', /^(:\d{1,6}\.\d{1,9}|org\.kde\.konsole(-\d{1,9})?)$/);
      if (service === null) return NOT_HERE;
      const window = valid(place, 'KONSOLE_DBUS_WINDOW', /^\/Windows\/\d{1,6}$/);
      const session = /^\/Sessions\/(\d{1,6})$/.exec(place.env.KONSOLE_DBUS_SESSION ?? '')?.[1];
      if (window === null || session === undefined) return cannot('Konsole did not say which window and tab hold the session');
      if (!context.has('gdbus')) return cannot('gdbus is not on PATH (it speaks to Konsole over D-Bus)');
      return focus(
        [
          {
            argv: ['gdbus', 'call', '--session', '--dest', service, '--object-path', window, '--method', 'org.kde.konsole.Window.setCurrentSession', session],
            cwd: null,
          },
        ],
        'Konsole selected the tab; its window is raised only if the desktop allows it',
      );
    },
  },
  {
    id: 'gnome-terminal',
    name: 'GNOME Terminal',
    focus(place, context) {
      const server = inChain(place, ['gnome-terminal-', 'gnome-terminal-server', 'gnome-terminal']);
      if (server === undefined && place.env.GNOME_TERMINAL_SCREEN === undefined) return NOT_HERE;
      const steps = server === undefined ? null : raise(server.pid, context);
      if (steps === null) return cannot('GNOME Terminal offers no way to select a tab from outside, and no X11 with xdotool is here to raise its window');
      return focus(steps, 'GNOME Terminal offers no way to select a tab from outside: its window was raised');
    },
  },
  {
    id: 'vscode',
    name: 'VS Code and its kin (integrated terminal)',
    focus(place, context) {
      const editor = place.chain.map((item) => VSCODE_CLIS[item.name.toLowerCase()]).find((cli) => cli !== undefined);
      if (editor === undefined && place.env.TERM_PROGRAM !== 'vscode') return NOT_HERE;
      const cli = editor ?? 'code';
      if (context.cwd === null) return cannot('the session has no folder here to bring its editor window forward by');
      if (!context.has(cli)) return cannot(`${cli} is not on PATH`);
      // Opening the folder a window already shows brings that window forward.
      return focus(
        [{ argv: [cli, '--', context.cwd], cwd: null }],
        'an integrated terminal cannot be focused from outside: the editor window with its folder was brought forward',
      );
    },
  },
  {
    id: 'other',
    name: 'other terminals (xterm, Alacritty, foot, Ghostty, …)',
    focus(place, context) {
      const terminal = inChain(place, OTHER_TERMINALS);
      if (terminal === undefined) return NOT_HERE;
      const steps = raise(terminal.pid, context);
      if (steps === null) return cannot(`${terminal.name} offers no way to focus one of its windows from outside, and no X11 with xdotool is here to raise it`);
      return focus(steps, `${terminal.name} offers no way to focus a tab from outside: its window was raised`);
    },
  },
];

/** The first entry that can focus the place; and what each entry that recognised it said. */
export function focusPlace(
  place: ProcessPlace,
  context: FocusContext,
): { focused: { terminal: TerminalId; steps: FocusStep[]; note: string | null; pane?: string } | null; tried: string[] } {
  const tried: string[] = [];
  for (const entry of TERMINALS) {
    if (entry.id !== 'tmux' && entry.id !== 'other' && inheritedOnly(place, entry.id)) continue;
    const result = entry.focus(place, context);
    switch (result.kind) {
      case 'not-here':
        continue;
      case 'cannot':
        tried.push(`${entry.name}: ${result.why}`);
        continue;
      case 'focus':
        return { focused: { terminal: entry.id, steps: result.steps, note: result.note, ...(result.pane === undefined ? {} : { pane: result.pane }) }, tried };
    }
  }
  if (tried.length === 0)
    tried.push(`no terminal Lookout knows holds process ${place.pid} (its ancestors: ${place.chain.map((item) => item.name).join(' ← ')})`);
  return { focused: null, tried };
}
