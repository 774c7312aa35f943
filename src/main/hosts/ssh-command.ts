// The ssh command lines Lookout runs for another machine: argv only (nothing through a local
// shell), batch mode (no password or host-key prompt ever: those fail with ssh's own reason),
// keep-alives that notice a machine that stopped answering, the user's own keys and config.
// The remote login shell may be any (sh, fish, csh): no data passes through its quoting (issue 25).
import type { HostConfig } from '../store/schema';

/** Seconds between keep-alives, and how many may go unanswered (LOOKOUT_SSH_KEEPALIVE sets the first). */
function keepAlive(env: Readonly<Record<string, string | undefined>>): { interval: number; count: number } {
  const interval = Number(env.LOOKOUT_SSH_KEEPALIVE);
  return { interval: Number.isInteger(interval) && interval >= 1 && interval <= 300 ? interval : 5, count: 3 };
}

/** A word every shell reads as itself, unquoted: sh, bash, zsh, fish and csh alike. */
export const PLAIN_WORD = /^[A-Za-z0-9._:-]{1,300}$/;

/**
 * The remote shell's command that runs Lookout there: the user's own `--command`, then plain words
 * only (a word that is not plain is refused, never quoted: quoting differs between login shells).
 */
export function remoteLookout(host: HostConfig, args: readonly string[]): string {
  const bad = args.find((word) => !PLAIN_WORD.test(word));
  if (bad !== undefined) throw new Error(`"${bad.slice(0, 80)}" cannot be passed to ${host.name}'s shell (only letters, digits and . _ : - are)`);
  return [host.command ?? 'lookout', ...args].join(' ');
}

/**
 * The argv for `ssh` to a host. `tty` asks for a terminal (opening a session there); otherwise
 * none (the feed). LOOKOUT_SSH_CONFIG names an ssh config file to use instead of ~/.ssh/config.
 */
export function sshArgv(host: HostConfig, remote: string | null, env: Readonly<Record<string, string | undefined>>, tty = false): string[] {
  const { interval, count } = keepAlive(env);
  const config = env.LOOKOUT_SSH_CONFIG;
  return [
    tty ? '-t' : '-T',
    '-o',
    'BatchMode=yes',
    '-o',
    `ServerAliveInterval=${interval}`,
    '-o',
    `ServerAliveCountMax=${count}`,
    '-o',
    'ConnectTimeout=10',
    ...(host.port === undefined ? [] : ['-p', String(host.port)]),
    ...(config === undefined || config === '' ? [] : ['-F', config]),
    // The destination cannot be an option (checked when added); "--" makes sure of it.
    '--',
    host.destination,
    ...(remote === null ? [] : [remote]),
  ];
}
