// What `lookout open-here` runs on the session's own machine (issue 25): another machine's `open`
// sends only the session's key over `ssh -t`; this side decides, argv only, with no shell between —
// the tmux pane that holds the live process, else the resume command in the session's folder, else
// (a session still running, whose second resume would write into the same transcript) the user's
// login shell there. Pure: the probes are passed in.
import type { OpenTarget, Probes } from './plan';
import { planOpen, safeSessionId } from './plan';

export type HerePlan = { kind: 'run'; argv: string[]; cwd: string | null } | { kind: 'none'; reason: string };

/** The login shell to give a live session's folder: $SHELL when it is an absolute path, else sh. */
function loginShell(shell: string | undefined): string {
  return shell?.startsWith('/') && !/[\0\n]/.test(shell) ? shell : '/bin/sh';
}

export function planHere(target: OpenTarget, probes: Probes, shell: string | undefined): HerePlan {
  if (target.live === true) {
    // Found as `open` finds it here, by the process's ancestry.
    const found = planOpen({ ...target, resume: [], live: true }, null, probes);
    if (found.kind === 'tmux-pane') {
      // tmux takes a lone ";" argument as the end of one command: attach, then bring the pane forward.
      return {
        kind: 'run',
        argv: ['tmux', 'attach-session', '-t', found.pane, ';', 'select-window', '-t', found.pane, ';', 'select-pane', '-t', found.pane],
        cwd: null,
      };
    }
  }
  const cwd = target.cwd;
  if (cwd === null || !cwd.startsWith('/') || !probes.isFolder(cwd)) return { kind: 'none', reason: 'the session has no folder that exists here' };
  if (target.live === true || !safeSessionId(target.sessionId) || target.resume.length === 0) return { kind: 'run', argv: [loginShell(shell), '-l'], cwd };
  return { kind: 'run', argv: [...target.resume], cwd };
}
