// A real OpenSSH server for the host tests: on 127.0.0.1 at a free port, with a host key and an
// authorised client key made in a temp folder, and an ssh config naming it by aliases. The
// "remote" machines are this one, each with its own LOOKOUT_HOME and agent folders.
import { execFileSync, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';

export const SSHD = ['/usr/sbin/sshd', '/usr/bin/sshd'].find((path) => existsSync(path)) ?? null;
export const CLI = resolve(__dirname, '../../dist/cli.cjs');

/**
 * Why a server whose login shell is another (fish) cannot run here, or null: it runs in a mount
 * namespace of its own where /etc/passwd names that shell (root and `unshare` needed).
 */
export function loginShellUnavailable(shell: string): string | null {
  if (!existsSync(shell)) return `no ${shell} on this machine (Debian: fish, installed by .ci/run)`;
  try {
    execFileSync('unshare', ['-m', 'true'], { stdio: 'ignore' });
  } catch {
    return 'unshare -m is not allowed here (root in a namespace-capable system needed)';
  }
  return null;
}

/** Why the ssh tests cannot run here, or null. */
export function sshUnavailable(): string | null {
  if (SSHD === null) return 'no sshd on this machine (Debian: openssh-server, installed by .ci/run)';
  try {
    execFileSync('ssh', ['-V'], { stdio: 'ignore' });
  } catch {
    return 'no ssh client on this machine';
  }
  return null;
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => done(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

export interface Sshd {
  port: number;
  /** An ssh config file (LOOKOUT_SSH_CONFIG) with `Host <alias>` entries for the server. */
  config: string;
  folder: string;
  process: ChildProcess;
  stop(): Promise<void>;
  restart(): Promise<void>;
}

/** Waits until the server accepts ssh logins (a condition, never a fixed time). */
async function ready(config: string, alias: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    try {
      execFileSync('ssh', ['-F', config, '-T', '-o', 'BatchMode=yes', alias, 'true'], { stdio: 'ignore', timeout: 10_000 });
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((done) => setImmediate(done));
    }
  }
}

/** This machine's passwd with the current user's login shell (and home, if given) replaced. */
function passwdWith(folder: string, shell: string | undefined, home: string | undefined): string {
  const uid = String(process.getuid?.() ?? 0);
  const lines = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .map((line) => {
      const fields = line.split(':');
      return fields[2] === uid && fields.length === 7 ? [...fields.slice(0, 5), home ?? fields[5], shell ?? fields[6]].join(':') : line;
    });
  const path = join(folder, 'passwd');
  writeFileSync(path, lines.join('\n'));
  return path;
}

/**
 * `shell`: the login shell sshd runs commands with (this user's own unless named; see
 * loginShellUnavailable); `home`: the remote user's home (a clean one for `hosts add --install`).
 */
export async function startSshd(folder: string, aliases: readonly string[], shell?: string, home?: string): Promise<Sshd> {
  mkdirSync(folder, { recursive: true });
  const key = (name: string) => {
    if (!existsSync(join(folder, name))) execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(folder, name)]);
  };
  key('host_key');
  key('client_key');
  key('stranger_key');
  writeFileSync(join(folder, 'authorized_keys'), readFileSync(join(folder, 'client_key.pub')), { mode: 0o600 });
  const port = await freePort();
  writeFileSync(
    join(folder, 'sshd_config'),
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${join(folder, 'host_key')}`,
      `AuthorizedKeysFile ${join(folder, 'authorized_keys')}`,
      `PidFile ${join(folder, 'sshd.pid')}`,
      'UsePAM no',
      'StrictModes no',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'PermitRootLogin prohibit-password',
      'PubkeyAuthentication yes',
      'ClientAliveInterval 0',
      'LogLevel ERROR',
      '',
    ].join('\n'),
  );
  const hostKey = readFileSync(join(folder, 'host_key.pub'), 'utf8').split(' ').slice(0, 2).join(' ');
  writeFileSync(join(folder, 'known_hosts'), `[127.0.0.1]:${port} ${hostKey}\n`);
  const entry = (alias: string, identity: string) =>
    [
      `Host ${alias}`,
      '  HostName 127.0.0.1',
      `  Port ${port}`,
      `  User ${process.env.USER ?? 'root'}`,
      `  IdentityFile ${join(folder, identity)}`,
      '  IdentitiesOnly yes',
      `  UserKnownHostsFile ${join(folder, 'known_hosts')}`,
      '  StrictHostKeyChecking yes',
      '',
    ].join('\n');
  const config = join(folder, 'ssh_config');
  writeFileSync(config, [...aliases.map((alias) => entry(alias, 'client_key')), entry('stranger', 'stranger_key')].join('\n'));
  // Privilege separation wants this folder when sshd runs as root.
  if (process.getuid?.() === 0) mkdirSync('/run/sshd', { recursive: true });
  const sshdArgv = [SSHD ?? 'sshd', '-D', '-e', '-f', join(folder, 'sshd_config')];
  // The passwd naming `shell` is seen by this sshd only; unshare execs in place, so the pid stays sshd's.
  const launch = () =>
    shell === undefined && home === undefined
      ? spawn(sshdArgv[0] ?? 'sshd', sshdArgv.slice(1), { stdio: ['ignore', 'ignore', 'pipe'] })
      : spawn('unshare', ['-m', '--', '/bin/sh', '-c', 'mount --bind "$0" /etc/passwd && exec "$@"', passwdWith(folder, shell, home), ...sshdArgv], {
          stdio: ['ignore', 'ignore', 'pipe'],
        });
  const server: Sshd = {
    port,
    config,
    folder,
    process: launch(),
    // The server and every connection it serves, as a crash would take them.
    stop: () =>
      new Promise((done) => {
        if (server.process.exitCode !== null || server.process.signalCode !== null) return done();
        server.process.once('exit', () => done());
        try {
          execFileSync('pkill', ['-KILL', '-P', String(server.process.pid)], { stdio: 'ignore' });
        } catch {
          // No connection open.
        }
        server.process.kill('SIGKILL');
      }),
    restart: async () => {
      await server.stop();
      server.process = launch();
      await ready(config, aliases[0] ?? 'stranger');
    },
  };
  await ready(config, aliases[0] ?? 'stranger');
  return server;
}
