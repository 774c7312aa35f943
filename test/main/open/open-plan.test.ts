// R50: the argv `open` would run in each case, hostile folder names included. Nothing is run.
import { describe, expect, it } from 'vitest';
import type { OpenTarget, Probes } from '../../../src/main/open/plan';
import { planOpen } from '../../../src/main/open/plan';
import { findProvider } from '../../../src/providers';
import { shellQuote } from '../../../src/providers/system/argv-quote';

const probes = (overrides: Partial<Probes> = {}): Probes => ({
  platform: 'linux',
  terminal: null,
  tmuxPanes: () => null,
  has: (command) => ['x-terminal-emulator', 'xdg-open', 'open', 'kitty'].includes(command),
  isFolder: () => true,
  place: () => null,
  x11: false,
  ...overrides,
});
const target = (overrides: Partial<OpenTarget> = {}): OpenTarget => {
  const base = { provider: 'claude', sessionId: '7f0c1d2e-1111-4a2b-9c3d-000000000001', cwd: '/home/me/app', pid: 4242, ...overrides };
  // The resume command is the registry's word for the provider.
  return { ...base, resume: overrides.resume ?? findProvider(base.provider)?.resume(base.sessionId) ?? [] };
};

const HOSTILE = [
  '/home/me/my app',
  "/home/me/it's",
  '/home/me/$(rm -rf ~)',
  '/home/me/`reboot`',
  '/home/me/a;b&&c|d',
  '/home/me/-rf',
  '/home/me/"q"',
  '/home/me/new\nline',
];

describe('open (R50)', () => {
  it('focuses the tmux pane whose process is an ancestor of the session', () => {
    const place = (pid: number) => ({ pid, chain: [pid, 500, 400, 1].map((item) => ({ pid: item, name: 'sh' })), env: {}, tty: null });
    const plan = planOpen(
      target(),
      null,
      probes({
        place,
        tmuxPanes: () => [
          { paneId: '%3', panePid: 999 },
          { paneId: '%12', panePid: 400 },
        ],
      }),
    );
    expect(plan).toEqual({
      kind: 'tmux-pane',
      pane: '%12',
      steps: [
        { argv: ['tmux', 'select-window', '-t', '%12'], cwd: null },
        { argv: ['tmux', 'select-pane', '-t', '%12'], cwd: null },
        { argv: ['tmux', 'switch-client', '-t', '%12'], cwd: null },
      ],
    });
  });

  it('without a matching pane, starts a terminal in the folder running the resume command', () => {
    expect(planOpen(target(), null, probes({ tmuxPanes: () => [{ paneId: '%3', panePid: 999 }] }))).toEqual({
      kind: 'terminal',
      steps: [{ argv: ['x-terminal-emulator', '-e', 'claude', '--resume', '7f0c1d2e-1111-4a2b-9c3d-000000000001'], cwd: '/home/me/app' }],
      script: null,
    });
    expect(planOpen(target({ provider: 'codex', sessionId: '0199a1b2-c3d4' }), null, probes({ terminal: 'kitty' }))).toMatchObject({
      steps: [{ argv: ['kitty', '-e', 'codex', 'resume', '0199a1b2-c3d4'] }],
    });
  });

  it('with no terminal, opens the folder', () => {
    expect(planOpen(target(), null, probes({ has: (command) => command === 'xdg-open' }))).toEqual({
      kind: 'folder',
      steps: [{ argv: ['xdg-open', '/home/me/app'], cwd: null }],
    });
  });

  it('on macOS, Terminal runs a .command file whose only shell text is single-quoted', () => {
    const plan = planOpen(target({ cwd: "/Users/me/it's $(here)" }), null, probes({ platform: 'darwin' }));
    expect(plan.kind).toBe('terminal');
    if (plan.kind !== 'terminal') return;
    expect(plan.steps[0]?.argv).toEqual(['open', '-a', 'Terminal', '{script}']);
    expect(plan.script?.text).toBe(`#!/bin/sh\ncd '/Users/me/it'\\''s $(here)' && exec 'claude' '--resume' '7f0c1d2e-1111-4a2b-9c3d-000000000001'\n`);
  });

  it('the settings template overrides, filled per argv element without splitting', () => {
    const plan = planOpen(target({ cwd: '/home/me/my app' }), ['wezterm', 'start', '--cwd', '{cwd}', '--', '{provider}', '--resume', '{sessionId}'], probes());
    expect(plan).toEqual({
      kind: 'template',
      steps: [
        { argv: ['wezterm', 'start', '--cwd', '/home/me/my app', '--', 'claude', '--resume', '7f0c1d2e-1111-4a2b-9c3d-000000000001'], cwd: '/home/me/my app' },
      ],
    });
  });

  it('each placeholder is filled once: a folder named dir-{provider} keeps its name (issue 11 item 15)', () => {
    const plan = planOpen(target({ cwd: '/home/me/src/dir-{provider}-{sessionId}' }), ['term', '--dir', '{cwd}', '{provider}'], probes());
    expect(plan).toMatchObject({ kind: 'template', steps: [{ argv: ['term', '--dir', '/home/me/src/dir-{provider}-{sessionId}', 'claude'] }] });
  });

  it.each(HOSTILE)('a hostile folder name stays one argv element, never a shell word: %j', (cwd) => {
    for (const plan of [
      planOpen(target({ cwd }), null, probes()),
      planOpen(target({ cwd }), null, probes({ has: (c) => c === 'xdg-open' })),
      planOpen(target({ cwd }), ['term', '--dir', '{cwd}'], probes()),
    ]) {
      expect(plan.kind).not.toBe('none');
      if (plan.kind === 'none') continue;
      const argv = plan.steps.flatMap((step) => step.argv);
      expect(argv.filter((part) => part.includes(cwd)).every((part) => part === cwd)).toBe(true);
      expect(argv[0]?.startsWith('-')).toBe(false);
      expect(argv.some((part) => part.startsWith('-') && part.includes('rf'))).toBe(false);
    }
    const quoted = shellQuote(cwd);
    expect(quoted.startsWith("'") && quoted.endsWith("'")).toBe(true);
  });

  it('a folder that is not absolute (from a transcript) is refused: it could pass as an option', () => {
    expect(planOpen(target({ cwd: '-rf' }), null, probes({ tmuxPanes: () => null }))).toEqual({
      kind: 'none',
      reason: 'the session has no folder that exists here',
    });
    expect(planOpen(target({ cwd: '--help' }), ['x', '{cwd}'], probes()).kind).toBe('none');
  });

  it('a session id that could pass as an option is never put in argv', () => {
    const plan = planOpen(target({ sessionId: '--dangerously-skip-permissions' }), null, probes());
    expect(plan).toEqual({ kind: 'folder', steps: [{ argv: ['xdg-open', '/home/me/app'], cwd: null }] });
    expect(planOpen(target({ sessionId: '-x' }), ['t', '{sessionId}'], probes()).kind).toBe('none');
  });
});

describe('open a session that is still running', () => {
  it('R50 a live session outside tmux gets a terminal in its folder, never a second --resume', () => {
    const plan = planOpen(target({ live: true }), null, probes());
    expect(plan).toEqual({ kind: 'terminal', steps: [{ argv: ['x-terminal-emulator'], cwd: '/home/me/app' }], script: null });
    expect(JSON.stringify(planOpen(target({ live: true }), null, probes({ platform: 'darwin' })))).not.toContain('--resume');
  });
});
