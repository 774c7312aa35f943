// Opening a session that lives on another machine (issue 13): a terminal here running
// `ssh -t <host> '<command> open-here <key>'` — argv only on this side. The remote login shell may
// be sh, fish or any other, so it is handed only the user's own `--command` and plain words (the
// key, checked); that machine's Lookout finds the session, then attaches its tmux pane or changes
// into its folder and runs its resume command itself (issue 25, `open-here`).
import { shellQuote } from '../../providers/system/argv-quote';
import type { HostConfig } from '../store/schema';
import { PLAIN_WORD, remoteLookout, sshArgv } from '../hosts/ssh-command';
import type { OpenPlan, Probes } from './plan';

export interface RemoteTarget {
  host: HostConfig;
  /** The session's key on that machine (without the host's name). */
  key: string;
  cwd: string | null;
}

/** What the remote shell runs: that machine's Lookout opening the session there; null when the key is not plain. */
function remoteOpenCommand(target: RemoteTarget): string | null {
  return PLAIN_WORD.test(target.key) ? remoteLookout(target.host, ['open-here', target.key]) : null;
}

export function planRemoteOpen(target: RemoteTarget, env: Readonly<Record<string, string | undefined>>, probes: Probes): OpenPlan {
  if (target.cwd === null || !target.cwd.startsWith('/')) return { kind: 'none', reason: `the session has no folder on ${target.host.name}` };
  const remote = remoteOpenCommand(target);
  if (remote === null) return { kind: 'none', reason: `the session's key is not plain enough to pass to ${target.host.name}'s shell` };
  const ssh = ['ssh', ...sshArgv(target.host, remote, env, true)];
  if (probes.platform === 'darwin') {
    const text = `#!/bin/sh\nexec ${ssh.map(shellQuote).join(' ')}\n`;
    // Named for the session too: two opens in quick succession never share a script.
    const name = target.key.replace(/[^A-Za-z0-9._-]/g, '-');
    return {
      kind: 'terminal',
      steps: [{ argv: ['open', '-a', 'Terminal', '{script}'], cwd: null }],
      script: { name: `lookout-open-${target.host.name}-${name}.command`, text },
    };
  }
  const terminal =
    probes.terminal !== null && probes.terminal !== '' && probes.has(probes.terminal)
      ? probes.terminal
      : probes.has('x-terminal-emulator')
        ? 'x-terminal-emulator'
        : null;
  if (terminal === null || probes.platform === 'win32') return { kind: 'none', reason: `no terminal to run ssh ${target.host.name} in` };
  return { kind: 'terminal', steps: [{ argv: [terminal, '-e', ...ssh], cwd: null }], script: null };
}
