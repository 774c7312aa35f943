// `hosts add --install` and `hosts upgrade` (issue 26): this Lookout's command line copied to
// another machine over the same ssh the feed uses — no scp, git or npm there, only its Node —
// installed under that user's data folder (never system-wide, never with sudo), and checked.
import type { HostConfig } from '../store/schema';
import { LOOKOUT_VERSION, NODE_MINIMUM, nodeAtLeast } from '../text/version';
import { UNSAFE } from '../text/terminal-text';
import type { RemotePlatform } from './install-payload';
import { installPayload } from './install-payload';
import { INSTALL_MARKER, PROBE_MARKER, installProgram, probeProgram } from './remote-programs';
import { remoteLookout, sshArgv } from './ssh-command';

/** A path the remote shell reads as itself, unquoted, in every login shell (no spaces, no $, no ~). */
export const PLAIN_PATH = /^\/[A-Za-z0-9._/+-]{0,400}$/;
/** How much a program there may say back (its JSON line and whatever a login shell prints). */
const OUTPUT_MAX = 256 * 1024;
const SSH_FAILED = 255;
const NOT_FOUND = 127;

export interface RemoteNode extends RemotePlatform {
  node: string;
  version: string;
  base: string;
  installed: string[];
}

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs one remote command with `input` on its standard input; output kept within bounds. */
function runRemote(host: HostConfig, remote: string, input: string, env: Readonly<Record<string, string | undefined>>, timeoutMs: number): Promise<Ran> {
  const { spawn } = process.getBuiltinModule('node:child_process');
  return new Promise((resolve) => {
    const child = spawn('ssh', sshArgv(host, remote, env), { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...env } as NodeJS.ProcessEnv });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      if (stdout.length < OUTPUT_MAX) stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = `${stderr}${chunk.toString('utf8')}`.slice(-8192);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ code: null, stdout, stderr: `ssh could not start (${error.message})` });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
  });
}

/** A remote's words on one line, with nothing a terminal would act on. */
function plain(text: string): string {
  return text.replace(UNSAFE, ' ').replace(/\s+/g, ' ').trim().slice(0, 300);
}

/** The JSON after the marker on the program's last marked line, or null. */
function marked(stdout: string, marker: string): unknown {
  const line = stdout
    .split('\n')
    .reverse()
    .find((candidate) => candidate.startsWith(marker));
  if (line === undefined) return null;
  try {
    return JSON.parse(line.slice(marker.length)) as unknown;
  } catch {
    return null;
  }
}

/** Why a remote command failed, in words that say what to do. */
function failure(host: HostConfig, node: string, ran: Ran): string {
  if (ran.code === SSH_FAILED || ran.code === null)
    return `ssh to ${host.destination} failed: ${plain(
      ran.stderr
        .split('\n')
        .filter((line) => line.trim() !== '')
        .at(-1) ?? 'no reason given',
    )}`;
  if (ran.code === NOT_FOUND)
    return `no Node found on ${host.name} as "${node}" (its login shell's PATH for ssh commands): install Node ${NODE_MINIMUM.join('.')} or newer there, or name it with --node /path/to/node`;
  return `${host.name}'s Node stopped (exit ${ran.code})${ran.stderr.trim() === '' ? '' : `: ${plain(ran.stderr.split('\n').find((line) => line.trim() !== '') ?? '')}`}`;
}

const isText = (value: unknown): value is string => typeof value === 'string' && value.length <= 1000;

/** The Node there and where Lookout would go; refused with a clear reason when it will not do. */
export async function probeRemoteNode(
  host: HostConfig,
  node: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<RemoteNode | { refused: string }> {
  const ran = await runRemote(host, `${node} -`, probeProgram(), env, 60_000);
  const said = marked(ran.stdout, PROBE_MARKER) as Record<string, unknown> | null;
  if (said === null || typeof said !== 'object') return { refused: failure(host, node, ran) };
  const { version, platform, arch, libc, base, installed } = said;
  if (!isText(said.node) || !isText(version) || !isText(platform) || !isText(arch) || !isText(base))
    return { refused: `${host.name}'s Node answered in a shape Lookout does not know` };
  const found: RemoteNode = {
    node: said.node,
    version,
    platform,
    arch,
    libc: libc === 'glibc' || libc === 'musl' ? libc : null,
    base,
    installed: Array.isArray(installed) ? installed.filter(isText).slice(0, 50) : [],
  };
  if (!nodeAtLeast(version))
    return {
      refused: `${host.name} has Node ${plain(version)} at ${plain(found.node)}; Lookout needs ${NODE_MINIMUM.join('.')} or newer: install a newer Node there (or name one with --node /path/to/node)`,
    };
  if (!PLAIN_PATH.test(found.node) || !PLAIN_PATH.test(found.base))
    return {
      refused: `${host.name}'s Node or data folder (${plain(found.node)}, ${plain(found.base)}) has characters Lookout does not pass through a login shell: set XDG_DATA_HOME there to a plain path, or install by hand and use --command`,
    };
  return found;
}

export interface Installed {
  /** The host's `--command` from now on: that Node and the copy's executable, absolute. */
  command: string;
  dir: string;
  bytes: number;
}

/** Copies this Lookout to the machine the probe saw, and checks the copy runs there. */
export async function installRemote(
  host: HostConfig,
  remote: RemoteNode,
  distDir: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<Installed | { refused: string }> {
  const payload = installPayload(distDir, remote);
  if ('refused' in payload) return payload;
  const program = installProgram(LOOKOUT_VERSION, payload.files);
  const ran = await runRemote(host, `${remote.node} -`, program, env, 300_000);
  const said = marked(ran.stdout, INSTALL_MARKER) as Record<string, unknown> | null;
  if (said === null || typeof said !== 'object') return { refused: failure(host, remote.node, ran) };
  if (said.ok !== true) return { refused: `installing on ${host.name} failed: ${plain(String(said.why ?? 'no reason given'))}` };
  const dir = said.dir;
  if (!isText(dir) || !PLAIN_PATH.test(dir)) return { refused: `${host.name} installed into a folder Lookout cannot name through a login shell` };
  return { command: `${remote.node} ${dir}/dist/cli.cjs`, dir, bytes: payload.files.reduce((sum, file) => sum + file.bytes.length, 0) };
}

/** The version of the Lookout a host runs now (`lookout version` there), "before-version" for one older than that command, or why it cannot be told. */
export async function remoteVersion(host: HostConfig, env: Readonly<Record<string, string | undefined>>): Promise<{ version: string } | { missing: string }> {
  const ran = await runRemote(host, remoteLookout(host, ['version']), '', env, 60_000);
  const match = /^lookout (\S{1,40})$/m.exec(ran.stdout);
  if (ran.code === 0 && match?.[1] !== undefined) return { version: plain(match[1]) };
  // A Lookout from before `version` refuses it as an unknown command.
  if (ran.code === 2 && /unknown command/.test(ran.stderr)) return { version: 'before-version' };
  if (ran.code === NOT_FOUND) return { missing: `no Lookout there as "${plain(host.command ?? 'lookout')}"` };
  return { missing: failure(host, host.command ?? 'lookout', ran) };
}
