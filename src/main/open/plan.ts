// R50: how to open a session, decided from what the machine offers. Pure: the probes are passed
// in, so every case (and every hostile folder name) is tested without running anything.
import type { Provider } from '../../engine';
import { shellQuote } from '../../providers/system/argv-quote';
import type { ProcessPlace } from './process-place';
import type { FocusStep, TerminalId } from './terminals';
import { focusPlace } from './terminals';

export interface OpenTarget {
  provider: Provider;
  sessionId: string;
  cwd: string | null;
  /** The live process behind the session (registry pid), if any. */
  pid: number | null;
  /** The provider's resume command for this session (its descriptor's argv). */
  resume: readonly string[];
  /** The session is running now (a live process, or live evidence): resuming it would start a second writer. */
  live?: boolean;
}

export interface Probes {
  platform: NodeJS.Platform;
  terminal: string | null;
  /** tmux panes with the pid of the process each one runs, or null without tmux. */
  tmuxPanes(): { paneId: string; panePid: number }[] | null;
  has(command: string): boolean;
  isFolder(path: string): boolean;
  /** Where a process runs: its ancestors, terminal variables and tty (null when it is gone). */
  place(pid: number): ProcessPlace | null;
  /** Lookout runs in an X11 session (xdotool can raise windows there). */
  x11: boolean;
}

export type OpenStep = FocusStep;

/** `tried`: when the session has a process and nothing focused its terminal, what each terminal said. */
export type OpenPlan =
  | { kind: 'template'; steps: OpenStep[] }
  | { kind: 'tmux-pane'; pane: string; steps: OpenStep[] }
  | { kind: 'focus'; terminal: TerminalId; steps: OpenStep[]; note: string | null; tried: string[] }
  | { kind: 'terminal'; steps: OpenStep[]; script: { name: string; text: string } | null; tried?: string[] }
  | { kind: 'folder'; steps: OpenStep[]; tried?: string[] }
  | { kind: 'none'; reason: string; tried?: string[] };

/** Session ids go into argv: letters, digits, dots, dashes and underscores, never a leading dash. */
export function safeSessionId(id: string): boolean {
  return /^[A-Za-z0-9_][A-Za-z0-9._-]*$/.test(id);
}

/** Each placeholder is filled once, in one pass: a folder named `dir-{provider}` stays that name. */
function fill(template: readonly string[], target: OpenTarget, cwd: string): string[] {
  const values: Record<string, string> = { cwd, sessionId: target.sessionId, provider: target.provider };
  return template.map((part) => part.replace(/\{(cwd|sessionId|provider)\}/g, (_all, name: string) => values[name] ?? ''));
}

function pickTerminal(probes: Probes): string | null {
  if (probes.platform === 'win32' || probes.platform === 'darwin') return null;
  if (probes.terminal !== null && probes.terminal !== '' && probes.has(probes.terminal)) return probes.terminal;
  return probes.has('x-terminal-emulator') ? 'x-terminal-emulator' : null;
}

export function planOpen(target: OpenTarget, template: readonly string[] | null, probes: Probes): OpenPlan {
  const idOk = safeSessionId(target.sessionId);
  const cwd = target.cwd?.startsWith('/') && probes.isFolder(target.cwd) ? target.cwd : null;
  if (template !== null) {
    if (!idOk) return { kind: 'none', reason: `the session id "${target.sessionId}" is not safe to pass on` };
    if (cwd === null) return { kind: 'none', reason: 'the session has no folder that exists here' };
    const [command, ...rest] = fill(template, target, cwd);
    return command === undefined ? { kind: 'none', reason: 'the open template is empty' } : { kind: 'template', steps: [{ argv: [command, ...rest], cwd }] };
  }
  // 1. The tmux pane, terminal window or tab that holds the session's process (terminals.ts).
  const place = target.pid === null ? null : probes.place(target.pid);
  const found =
    place === null
      ? null
      : focusPlace(place, { platform: probes.platform, has: (command) => probes.has(command), x11: probes.x11, cwd, tmuxPanes: () => probes.tmuxPanes() });
  const focused = found?.focused ?? null;
  if (focused !== null && focused.terminal === 'tmux' && focused.pane !== undefined) return { kind: 'tmux-pane', pane: focused.pane, steps: focused.steps };
  if (focused !== null) return { kind: 'focus', terminal: focused.terminal, steps: focused.steps, note: focused.note, tried: found?.tried ?? [] };
  return withTried(fallback(target, cwd, idOk, probes), found?.tried);
}

function withTried(plan: OpenPlan, tried: string[] | undefined): OpenPlan {
  if (tried === undefined || plan.kind === 'focus' || plan.kind === 'template' || plan.kind === 'tmux-pane') return plan;
  return { ...plan, tried };
}

/** Nothing to focus: a terminal resuming the session (one still running gets a shell in its folder), else the folder. */
function fallback(target: OpenTarget, cwd: string | null, idOk: boolean, probes: Probes): OpenPlan {
  if (cwd === null) return { kind: 'none', reason: 'the session has no folder that exists here' };
  // A second `--resume` of a session still running elsewhere would write into the same transcript.
  if (target.live === true) {
    if (probes.platform === 'darwin') return { kind: 'terminal', steps: [{ argv: ['open', '-a', 'Terminal', cwd], cwd: null }], script: null };
    const terminal = pickTerminal(probes);
    if (terminal !== null) return { kind: 'terminal', steps: [{ argv: [terminal], cwd }], script: null };
  } else if (idOk) {
    const resume = target.resume;
    if (probes.platform === 'darwin') {
      const text = `#!/bin/sh\ncd ${shellQuote(cwd)} && exec ${resume.map(shellQuote).join(' ')}\n`;
      return {
        kind: 'terminal',
        steps: [{ argv: ['open', '-a', 'Terminal', '{script}'], cwd }],
        script: { name: `lookout-open-${target.sessionId}.command`, text },
      };
    }
    const terminal = pickTerminal(probes);
    if (terminal !== null) return { kind: 'terminal', steps: [{ argv: [terminal, '-e', ...resume], cwd }], script: null };
  }
  // 3. The folder itself.
  const opener = probes.platform === 'darwin' ? 'open' : probes.platform === 'win32' ? 'explorer' : 'xdg-open';
  if (!probes.has(opener)) return { kind: 'none', reason: `no terminal and no ${opener} to open ${cwd}` };
  return { kind: 'folder', steps: [{ argv: [opener, cwd], cwd: null }] };
}

/** Running now: a live registry process, or evidence of a turn in progress or a request open. */
export function looksLive(state: string, processAlive: boolean): boolean {
  return processAlive || state === 'running' || state === 'running-subagents' || state === 'awaiting-approval' || state === 'awaiting-input';
}
