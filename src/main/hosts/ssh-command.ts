// The ssh command lines Lookout runs for another machine: argv only (nothing through a local
// shell), batch mode (no password or host-key prompt ever: those fail with ssh's own reason),
// keep-alives that notice a machine that stopped answering, the user's own keys and config.
import type { HostConfig } from '../store/schema';
import { shellQuote } from '../../providers/system/argv-quote';

/** Seconds between keep-alives, and how many may go unanswered (LOOKOUT_SSH_KEEPALIVE sets the first). */
export function keepAlive(env: Readonly<Record<string, string | undefined>>): { interval: number; count: number } {
  const interval = Number(env.LOOKOUT_SSH_KEEPALIVE);
  return { interval: Number.isInteger(interval) && interval >= 1 && interval <= 300 ? interval : 5, count: 3 };
}

/** The remote shell's command that runs Lookout there, with its arguments quoted for that shell once. */
export function remoteLookout(host: HostConfig, args: readonly string[]): string {
  return [host.command ?? 'lookout', ...args.map(shellQuote)].join(' ');
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
    '-o', 'BatchMode=yes',
    '-o', `ServerAliveInterval=${interval}`,
    '-o', `ServerAliveCountMax=${count}`,
    '-o', 'ConnectTimeout=10',
    ...(host.port === undefined ? [] : ['-p', String(host.port)]),
    ...(config === undefined || config === '' ? [] : ['-F', config]),
    // The destination cannot be an option (checked when added); "--" makes sure of it.
    '--',
    host.destination,
    ...(remote === null ? [] : [remote]),
  ];
}
