// Issue 15: the terminal table, by the exact argv each entry would run, with hostile values from
// the agent's environment, ttys and folders. Nothing is run here (open-focus.test.ts runs tmux
// and kitty for real).
import { describe, expect, it } from 'vitest';
import type { Probes } from '../../../src/main/open/plan';
import { planOpen } from '../../../src/main/open/plan';
import type { ProcessPlace } from '../../../src/main/open/process-place';
import { placeVariables, placeVariablesFromPs, ttyFromLink, ttyFromPs } from '../../../src/main/open/process-place';
import type { FocusContext } from '../../../src/main/open/terminals';
import { focusPlace } from '../../../src/main/open/terminals';

const place = (overrides: Partial<ProcessPlace> = {}): ProcessPlace => ({
  pid: 4242,
  chain: [
    { pid: 4242, name: 'claude' },
    { pid: 4000, name: 'zsh' },
    { pid: 3000, name: 'login' },
  ],
  env: {},
  tty: null,
  ...overrides,
});
const linux = (overrides: Partial<FocusContext> = {}): FocusContext => ({
  platform: 'linux',
  has: () => true,
  x11: true,
  cwd: '/home/me/app',
  tmuxPanes: () => null,
  ...overrides,
});
const mac = (overrides: Partial<FocusContext> = {}): FocusContext => linux({ platform: 'darwin', x11: false, ...overrides });
const argvOf = (result: ReturnType<typeof focusPlace>): string[][] | null => result.focused?.steps.map((step) => step.argv) ?? null;

describe('the terminal table (issue 15)', () => {
  it('tmux first: the pane whose process is an ancestor, even inside a kitty window', () => {
    const result = focusPlace(
      place({ env: { KITTY_WINDOW_ID: '7', KITTY_LISTEN_ON: 'unix:/tmp/k' } }),
      linux({
        tmuxPanes: () => [
          { paneId: '%3', panePid: 999 },
          { paneId: '%12', panePid: 4000 },
        ],
      }),
    );
    expect(result.focused).toEqual({
      terminal: 'tmux',
      pane: '%12',
      steps: [
        { argv: ['tmux', 'select-window', '-t', '%12'], cwd: null },
        { argv: ['tmux', 'select-pane', '-t', '%12'], cwd: null },
        { argv: ['tmux', 'switch-client', '-t', '%12'], cwd: null },
      ],
      note: null,
    });
  });

  it('kitty: the window by its id, through the socket it listens on', () => {
    const result = focusPlace(place({ env: { KITTY_WINDOW_ID: '7', KITTY_LISTEN_ON: 'unix:/tmp/kitty-1000' } }), linux());
    expect(result.focused?.terminal).toBe('kitty');
    expect(argvOf(result)).toEqual([['kitty', '@', '--to', 'unix:/tmp/kitty-1000', 'focus-window', '--match', 'id:7']]);
  });

  it('kitty without remote control: says so, and what it would need', () => {
    const result = focusPlace(place({ env: { KITTY_WINDOW_ID: '7' } }), linux());
    expect(result.focused).toBeNull();
    expect(result.tried).toEqual(['kitty: kitty was started without remote control listening (allow_remote_control and listen_on in kitty.conf)']);
  });

  it.each([
    ['a window id that is an option', { KITTY_WINDOW_ID: '7 --match all', KITTY_LISTEN_ON: 'unix:/tmp/k' }],
    ['a window id with a newline', { KITTY_WINDOW_ID: '7\n8', KITTY_LISTEN_ON: 'unix:/tmp/k' }],
  ])('kitty: %s is not taken for one', (_case, env) => {
    expect(focusPlace(place({ env }), linux()).focused).toBeNull();
  });

  it('kitty: a socket value that could pass as an option or hold a newline is refused', () => {
    for (const socket of ['--to=evil', 'unix:/tmp/k\nfocus-window', 'file:/etc/passwd']) {
      const result = focusPlace(place({ env: { KITTY_WINDOW_ID: '7', KITTY_LISTEN_ON: socket } }), linux());
      expect(result.focused).toBeNull();
      expect(result.tried[0]).toContain('remote control');
    }
  });

  it('WezTerm: the pane by id, its socket passed in the environment, not the argv', () => {
    const result = focusPlace(place({ env: { WEZTERM_PANE: '3', WEZTERM_UNIX_SOCKET: '/run/user/1000/wezterm/gui-sock-99' } }), linux());
    expect(result.focused?.steps).toEqual([
      { argv: ['wezterm', 'cli', 'activate-pane', '--pane-id', '3'], cwd: null, env: { WEZTERM_UNIX_SOCKET: '/run/user/1000/wezterm/gui-sock-99' } },
    ]);
  });

  it('GNU screen: the window in its session', () => {
    expect(argvOf(focusPlace(place({ env: { STY: '12345.pts-0.devbox', WINDOW: '2' } }), linux()))).toEqual([
      ['screen', '-S', '12345.pts-0.devbox', '-X', 'select', '2'],
    ]);
    // A session name with a shell metacharacter is no session name of screen's.
    expect(focusPlace(place({ env: { STY: '1.x;reboot', WINDOW: '2' } }), linux()).focused).toBeNull();
  });

  it('iTerm2 and Terminal (macOS): fixed AppleScript, the tty its only argument', () => {
    const iterm = focusPlace(place({ env: { TERM_PROGRAM: 'iTerm.app' }, tty: '/dev/ttys004' }), mac());
    const argv = argvOf(iterm)?.[0] ?? [];
    expect(iterm.focused?.terminal).toBe('iterm2');
    expect(argv[0]).toBe('osascript');
    expect(argv.at(-1)).toBe('/dev/ttys004');
    // Every other element is "-e" or a line of the script, and no line mentions the tty.
    expect(
      argv
        .slice(1, -1)
        .filter((_part, index) => index % 2 === 0)
        .every((part) => part === '-e'),
    ).toBe(true);
    expect(argv.slice(1, -1).join('\n')).not.toContain('ttys004');
    const terminal = focusPlace(place({ env: { TERM_PROGRAM: 'Apple_Terminal' }, tty: '/dev/ttys011' }), mac());
    expect(terminal.focused?.terminal).toBe('terminal-app');
    expect(argvOf(terminal)?.[0]?.at(-1)).toBe('/dev/ttys011');
  });

  it('iTerm2: a tty that is not a terminal device is refused; off macOS it is not asked', () => {
    for (const tty of ['/dev/ttys004" & do shell script "reboot', '/etc/passwd']) {
      const result = focusPlace(place({ env: { TERM_PROGRAM: 'iTerm.app' }, tty }), mac());
      expect(result.focused).toBeNull();
      expect(result.tried).toEqual(['iTerm2: the session has no terminal device to look for']);
    }
    expect(focusPlace(place({ env: { TERM_PROGRAM: 'iTerm.app' }, tty: '/dev/ttys004' }), linux()).focused).toBeNull();
  });

  it('Konsole: the tab through its D-Bus window object', () => {
    const env = { KONSOLE_DBUS_SERVICE: ':1.42', KONSOLE_DBUS_WINDOW: '/Windows/1', KONSOLE_DBUS_SESSION: '/Sessions/3' };
    expect(argvOf(focusPlace(place({ env }), linux()))).toEqual([
      ['gdbus', 'call', '--session', '--dest', ':1.42', '--object-path', '/Windows/1', '--method', 'org.kde.konsole.Window.setCurrentSession', '3'],
    ]);
    expect(focusPlace(place({ env: { ...env, KONSOLE_DBUS_WINDOW: '/Windows/1 --system' } }), linux()).tried[0]).toContain('Konsole did not say');
  });

  it('GNOME Terminal: no tab interface, so its window is raised under X11 and the note says so; without xdotool, said', () => {
    const chain = [...place().chain, { pid: 2000, name: 'gnome-terminal-' }];
    const raised = focusPlace(place({ chain, env: { GNOME_TERMINAL_SCREEN: '/org/gnome/Terminal/screen/abc' } }), linux());
    expect(argvOf(raised)).toEqual([['xdotool', 'search', '--onlyvisible', '--pid', '2000', 'windowactivate']]);
    expect(raised.focused?.note).toContain('no way to select a tab');
    const wayland = focusPlace(place({ chain }), linux({ x11: false }));
    expect(wayland.focused).toBeNull();
    expect(wayland.tried[0]).toMatch(/^GNOME Terminal: .*no X11 with xdotool/);
  });

  it('VS Code-family terminals: the editor window with the folder, the folder after "--"', () => {
    const chain = [...place().chain, { pid: 2000, name: 'cursor' }];
    const result = focusPlace(place({ chain }), linux({ cwd: '/home/me/-rf $(x)' }));
    expect(argvOf(result)).toEqual([['cursor', '--', '/home/me/-rf $(x)']]);
    expect(result.focused?.note).toContain('integrated terminal');
    expect(argvOf(focusPlace(place({ env: { TERM_PROGRAM: 'vscode' } }), linux()))).toEqual([['code', '--', '/home/me/app']]);
  });

  it('variables only inherited do not decide: an xterm started from a kitty shell holds the session, not kitty', () => {
    const chain = [
      { pid: 4242, name: 'claude' },
      { pid: 4000, name: 'zsh' },
      { pid: 3900, name: 'xterm' },
      { pid: 3800, name: 'zsh' },
      { pid: 3000, name: 'kitty' },
    ];
    const result = focusPlace(place({ chain, env: { KITTY_WINDOW_ID: '7', KITTY_LISTEN_ON: 'unix:/tmp/k' } }), linux());
    expect(result.focused?.terminal).toBe('other');
    expect(argvOf(result)).toEqual([['xdotool', 'search', '--onlyvisible', '--pid', '3900', 'windowactivate']]);
    // In kitty itself (kitty nearest), kitty.
    expect(
      focusPlace(
        place({
          chain: [chain[0], chain[1], { pid: 3000, name: 'kitty' }] as ProcessPlace['chain'],
          env: { KITTY_WINDOW_ID: '7', KITTY_LISTEN_ON: 'unix:/tmp/k' },
        }),
        linux(),
      ).focused?.terminal,
    ).toBe('kitty');
  });

  it('a process in no terminal Lookout knows: what was tried names its ancestors', () => {
    expect(focusPlace(place(), linux())).toEqual({
      focused: null,
      tried: ['no terminal Lookout knows holds process 4242 (its ancestors: claude ← zsh ← login)'],
    });
  });
});

describe('open with the table (issue 15)', () => {
  const probes = (found: ProcessPlace | null): Probes => ({
    platform: 'linux',
    terminal: null,
    tmuxPanes: () => null,
    has: () => true,
    isFolder: () => true,
    place: () => found,
    x11: false,
  });
  const target = {
    provider: 'claude',
    sessionId: '7f0c1d2e-1111-4a2b-9c3d-000000000001',
    cwd: '/home/me/app',
    pid: 4242,
    resume: ['claude', '--resume', '7f0c1d2e-1111-4a2b-9c3d-000000000001'],
    live: true,
  };

  it('a process in a kitty window: focus, not a new terminal', () => {
    expect(planOpen(target, null, probes(place({ env: { KITTY_WINDOW_ID: '2', KITTY_LISTEN_ON: 'unix:@kitty' } })))).toEqual({
      kind: 'focus',
      terminal: 'kitty',
      steps: [{ argv: ['kitty', '@', '--to', 'unix:@kitty', 'focus-window', '--match', 'id:2'], cwd: null }],
      note: null,
      tried: [],
    });
  });

  it('a process whose terminal cannot be focused: a shell in its folder, with what was tried', () => {
    expect(planOpen(target, null, probes(place({ env: { KITTY_WINDOW_ID: '2' } })))).toEqual({
      kind: 'terminal',
      steps: [{ argv: ['x-terminal-emulator'], cwd: '/home/me/app' }],
      script: null,
      tried: ['kitty: kitty was started without remote control listening (allow_remote_control and listen_on in kitty.conf)'],
    });
  });

  it('a process already gone: the fallback, with nothing tried', () => {
    expect(planOpen({ ...target, live: false }, null, probes(null))).toEqual({
      kind: 'terminal',
      steps: [{ argv: ['x-terminal-emulator', '-e', ...target.resume], cwd: '/home/me/app' }],
      script: null,
    });
  });
});

describe('reading a place (issue 15)', () => {
  it('keeps only the terminal variables of an environment block, and no overlong value', () => {
    const block = [
      'PATH=/usr/bin',
      'KITTY_WINDOW_ID=3',
      'SECRET_TOKEN=abc',
      'TMUX_PANE=%4',
      `WEZTERM_PANE=${'9'.repeat(2000)}`,
      'TERM_PROGRAM=iTerm.app',
      'junk',
      '=x',
      '',
    ].join('\0');
    expect(placeVariables(block)).toEqual({ KITTY_WINDOW_ID: '3', TMUX_PANE: '%4', TERM_PROGRAM: 'iTerm.app' });
    expect(placeVariablesFromPs('/usr/local/bin/claude --resume x TERM_PROGRAM=Apple_Terminal TERM_SESSION_ID=ABC-1 HOME=/Users/me')).toEqual({
      TERM_PROGRAM: 'Apple_Terminal',
      TERM_SESSION_ID: 'ABC-1',
    });
  });

  it('a tty from ps or a descriptor link, nothing else', () => {
    expect(ttyFromPs('ttys004\n')).toBe('/dev/ttys004');
    expect(ttyFromPs('pts/3')).toBe('/dev/pts/3');
    expect(ttyFromPs('??')).toBeNull();
    expect(ttyFromPs('../../etc/passwd')).toBeNull();
    expect(ttyFromLink('/dev/pts/12')).toBe('/dev/pts/12');
    expect(ttyFromLink('/home/me/.claude/x.jsonl')).toBeNull();
    expect(ttyFromLink('socket:[1234]')).toBeNull();
  });
});
