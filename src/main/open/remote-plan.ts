// Opening a session that lives on another machine (issue 13): a terminal here running
// `ssh -t <host>` with, there, its tmux pane when its own Lookout found one, else
// `cd <folder> && exec <resume command>` — argv only on this side,
// quoted once for the remote shell (the one text that shell reads). A session still running there
// gets a shell in its folder instead (a second resume would write into the same transcript).
import { shellQuote } from '../../providers/system/argv-quote';
import type { HostConfig } from '../store/schema';
import { sshArgv } from '../hosts/ssh-command';
import type { OpenPlan, Probes } from './plan';
import { safeSessionId } from './plan';

export interface RemoteTarget {
  host: HostConfig;
  sessionId: string;
  cwd: string | null;
  resume: readonly string[];
  live: boolean;
  /** The tmux pane the live session runs in there (its own Lookout found it), if any. */
  pane?: string | null;
}

/** What the remote shell runs: its tmux pane; else into the folder, then the resume command (or a login shell). */
export function remoteOpenCommand(target: RemoteTarget): string | null {
  const pane = target.pane ?? null;
  if (pane !== null && /^%\d{1,9}$/.test(pane)) {
    // tmux takes a lone ";" argument as the end of one command: attach, then bring the pane forward.
    return ['exec', ...['tmux', 'attach-session', '-t', pane, ';', 'select-window', '-t', pane, ';', 'select-pane', '-t', pane].map(shellQuote)].join(' ');
  }
  if (target.cwd === null || !target.cwd.startsWith('/')) return null;
  const into = `cd ${shellQuote(target.cwd)}`;
  if (target.live || !safeSessionId(target.sessionId) || target.resume.length === 0) return `${into} && exec "\${SHELL:-/bin/sh}" -l`;
  return `${into} && exec ${target.resume.map(shellQuote).join(' ')}`;
}

export function planRemoteOpen(target: RemoteTarget, env: Readonly<Record<string, string | undefined>>, probes: Probes): OpenPlan {
  const remote = remoteOpenCommand(target);
  if (remote === null) return { kind: 'none', reason: `the session has no folder on ${target.host.name}` };
  const ssh = ['ssh', ...sshArgv(target.host, remote, env, true)];
  if (probes.platform === 'darwin') {
    const text = `#!/bin/sh\nexec ${ssh.map(shellQuote).join(' ')}\n`;
    // Named for the session too: two opens in quick succession never share a script.
    return { kind: 'terminal', steps: [{ argv: ['open', '-a', 'Terminal', '{script}'], cwd: null }], script: { name: `lookout-open-${target.host.name}-${safeSessionId(target.sessionId) ? target.sessionId : 'session'}.command`, text } };
  }
  const terminal = probes.terminal !== null && probes.terminal !== '' && probes.has(probes.terminal) ? probes.terminal : probes.has('x-terminal-emulator') ? 'x-terminal-emulator' : null;
  if (terminal === null || probes.platform === 'win32') return { kind: 'none', reason: `no terminal to run ssh ${target.host.name} in` };
  return { kind: 'terminal', steps: [{ argv: [terminal, '-e', ...ssh], cwd: null }], script: null };
}
