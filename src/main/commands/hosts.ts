// `lookout hosts add|list|remove`: the other machines whose sessions this one shows, over ssh
// (issue 13, docs/hosts.md). Stored in settings.json, validated like the rest.
import { parseArgs } from 'node:util';
import { providerIds } from '../../providers';
import { resolveNow } from '../cli/now-option';
import { UsageError } from '../cli/usage-error';
import { printLines } from '../text/terminal-text';
import { lookoutHome } from '../store/home';
import type { HostConfig } from '../store/schema';
import { HOST_NAME, SSH_DESTINATION } from '../store/schema';
import { loadSettings, updateSettings } from '../store/settings-store';
import { probeHost, probeHosts } from '../hosts/probe';
import type { HostView } from '../../engine';
import { hostState } from '../../engine';
import { LOOKOUT_VERSION } from '../text/version';
import { PLAIN_WORD } from '../hosts/ssh-command';
import { PLAIN_PATH, installRemote, probeRemoteNode, remoteVersion } from '../hosts/remote-install';

/** The settings file as read under its lock, with its hosts changed: a host added meanwhile stays (issue 25 item 6). */
function changeHosts(home: string, now: number, change: (hosts: HostConfig[]) => HostConfig[]): void {
  printLines(
    process.stderr,
    updateSettings(home, now, (file) => ({ ...file, hosts: change(file.hosts) })),
  );
}

/** The name rules give this machine (`--host local`). */
const LOCAL_HOST = 'local';

/** A name from a destination: the host part of user@host, as a name may be spelled. */
function nameFrom(destination: string): string {
  return (destination.split('@').at(-1) ?? destination)
    .replace(/[^A-Za-z0-9._-]/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 63);
}

/** What a link's first look says: connected with its sessions and its Lookout's version, or why not. */
function linkLine(view: HostView): string {
  if (view.status.kind !== 'connected') return hostState(view.status);
  const lookout = view.lookout === undefined ? '' : view.lookout === null ? ', Lookout from before 0.1.0' : `, Lookout ${view.lookout.version}`;
  return `connected, ${view.snapshot?.sessions.length ?? 0} sessions${lookout}`;
}

/**
 * Copies this Lookout to the host (remote-install.ts) and returns the host with its new
 * `--command`; progress on standard output, a refusal thrown as one line (exit 1).
 */
async function install(host: HostConfig, node: string): Promise<HostConfig> {
  const remote = await probeRemoteNode(host, node, process.env);
  if ('refused' in remote) throw new RefusedError(`${host.name}: ${remote.refused}`);
  printLines(process.stdout, [
    `${host.name}: Node ${remote.version} at ${remote.node} (${remote.platform} ${remote.arch}${remote.libc === null ? '' : `, ${remote.libc}`})`,
  ]);
  const done = await installRemote(host, remote, __dirname, process.env);
  if ('refused' in done) throw new RefusedError(`${host.name}: ${done.refused}`);
  const others = remote.installed.filter((version) => version !== LOOKOUT_VERSION);
  printLines(process.stdout, [
    `${host.name}: Lookout ${LOOKOUT_VERSION} installed in ${done.dir} (${(done.bytes / 1024 / 1024).toFixed(1)} MB sent)${others.length === 0 ? '' : `; other versions kept there: ${others.join(', ')}`}`,
  ]);
  return { ...host, command: done.command };
}

/** A failure the user can act on, said as one line; the command exits 1, not 2 (the arguments were right). */
class RefusedError extends Error {}

/** `--node`: the Node to run there, a word or an absolute path the remote shell reads as itself. */
function nodeOption(value: string | undefined): string {
  if (value === undefined) return 'node';
  if (!PLAIN_WORD.test(value) && !PLAIN_PATH.test(value))
    throw new UsageError(`--node takes a program name or an absolute path of letters, digits and . _ / + - (got "${value.slice(0, 80)}")`);
  return value;
}

function describe(host: HostConfig): string {
  return `ssh ${host.destination}${host.port === undefined ? '' : ` -p ${host.port}`}${host.command === undefined ? '' : `, lookout: ${host.command}`}`;
}

export async function hostsCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: {
      name: { type: 'string' },
      port: { type: 'string' },
      command: { type: 'string' },
      install: { type: 'boolean' },
      node: { type: 'string' },
      now: { type: 'string' },
    },
    strict: true,
    allowPositionals: true,
  });
  const [action, subject, ...extra] = positionals;
  const now = resolveNow(values.now);
  const home = lookoutHome(process.env);
  const hosts = loadSettings(home, now).hosts;
  if (extra.length > 0) throw new UsageError(`hosts ${action ?? ''} takes one argument (got "${extra.join(' ')}" more)`);
  if (values.install === true && action !== 'add') throw new UsageError('--install goes with hosts add');
  if (values.node !== undefined && values.install !== true && action !== 'upgrade')
    throw new UsageError('--node goes with hosts add --install or hosts upgrade');
  const node = nodeOption(values.node);
  try {
    return await hostsAction(action, subject, values, hosts, home, now, node);
  } catch (error) {
    if (!(error instanceof RefusedError)) throw error;
    printLines(process.stderr, [`lookout: ${error.message}`]);
    return 1;
  }
}

type HostsValues = { name?: string; port?: string; command?: string; install?: boolean };

async function hostsAction(
  action: string | undefined,
  subject: string | undefined,
  values: HostsValues,
  hosts: readonly HostConfig[],
  home: string,
  now: number,
  node: string,
): Promise<number> {
  switch (action) {
    case 'add': {
      if (subject === undefined) throw new UsageError('hosts add needs an ssh destination (a ~/.ssh/config alias or user@host)');
      if (!SSH_DESTINATION.test(subject))
        throw new UsageError(`"${subject}" is not an ssh destination Lookout takes (letters, digits and _ . @ % : [ ] -, not starting with "-")`);
      const name = values.name ?? nameFrom(subject);
      if (!HOST_NAME.test(name)) throw new UsageError(`--name "${name}" is not a host name (letters, digits, . _ -, up to 63)`);
      if (providerIds().includes(name)) throw new UsageError(`--name "${name}" is a provider's id: choose another (keys would read ambiguously)`);
      // `rules add --host local` means this machine: a host of that name could never be told apart.
      if (name === LOCAL_HOST) throw new UsageError(`a host may not be named "${LOCAL_HOST}" (rules' --host ${LOCAL_HOST} means this machine): --name another`);
      const free = (known: readonly HostConfig[]): void => {
        if (known.some((host) => host.name === name))
          throw new UsageError(`a host named "${name}" exists already (hosts remove ${name} first, or --name another)`);
      };
      free(hosts);
      const port = values.port === undefined ? undefined : Number(values.port);
      if (port !== undefined && !(Number.isInteger(port) && port >= 1 && port <= 65535))
        throw new UsageError(`--port takes a port number (got "${values.port}")`);
      if (values.command !== undefined && (values.command.trim() === '' || /[\0\n\r]/.test(values.command)))
        throw new UsageError('--command takes one line: how the remote shell runs lookout (e.g. "node ~/lookout/dist/cli.cjs")');
      if (values.command !== undefined && values.install === true)
        throw new UsageError('--install sets the command itself: give --install or --command, not both');
      const given: HostConfig = {
        name,
        destination: subject,
        ...(port === undefined ? {} : { port }),
        ...(values.command === undefined ? {} : { command: values.command }),
      };
      const host = values.install === true ? await install(given, node) : given;
      changeHosts(home, now, (known) => {
        free(known);
        return [...known, host];
      });
      if (values.install !== true) {
        printLines(process.stdout, [`${name}: added (${describe(host)}); \`lookout hosts list\` checks it, and watch, serve and the app show its sessions`]);
        return 0;
      }
      const view = await probeHost(host, { env: process.env, clock: Date.now, onProblem: () => undefined });
      printLines(process.stdout, [`${name}: added (${describe(host)}); ${linkLine(view)}`]);
      return view.status.kind === 'connected' ? 0 : 1;
    }
    case 'upgrade': {
      if (subject === undefined) throw new UsageError('hosts upgrade needs a host name (see lookout hosts list)');
      const host = hosts.find((candidate) => candidate.name === subject);
      if (host === undefined)
        throw new UsageError(`no host named "${subject}" (${hosts.length === 0 ? 'none are set' : hosts.map((known) => known.name).join(', ')})`);
      const there = await remoteVersion(host, process.env);
      if ('version' in there && there.version === LOOKOUT_VERSION) {
        printLines(process.stdout, [`${subject}: runs Lookout ${LOOKOUT_VERSION} already; nothing to do`]);
        return 0;
      }
      printLines(process.stdout, [
        `${subject}: ${'version' in there ? `runs Lookout ${there.version === 'before-version' ? 'from before 0.1.0' : there.version}` : there.missing}; installing ${LOOKOUT_VERSION}`,
      ]);
      const upgraded = await install(host, node);
      changeHosts(home, now, (known) => known.map((candidate) => (candidate.name === subject ? { ...candidate, command: upgraded.command } : candidate)));
      if (host.command !== undefined && host.command !== upgraded.command)
        printLines(process.stdout, [`${subject}: its command was "${host.command}"; now "${upgraded.command}"`]);
      const view = await probeHost(upgraded, { env: process.env, clock: Date.now, onProblem: () => undefined });
      printLines(process.stdout, [`${subject}: ${linkLine(view)}`]);
      return view.status.kind === 'connected' && view.lookout?.version === LOOKOUT_VERSION ? 0 : 1;
    }
    case 'remove': {
      if (subject === undefined) throw new UsageError('hosts remove needs a host name (see lookout hosts list)');
      const known = (set: readonly HostConfig[]): void => {
        if (!set.some((host) => host.name === subject))
          throw new UsageError(`no host named "${subject}" (${set.length === 0 ? 'none are set' : set.map((host) => host.name).join(', ')})`);
      };
      known(hosts);
      changeHosts(home, now, (set) => {
        known(set);
        return set.filter((host) => host.name !== subject);
      });
      printLines(process.stdout, [`${subject}: removed`]);
      return 0;
    }
    case 'list': {
      if (subject !== undefined) throw new UsageError('hosts list takes no argument');
      if (hosts.length === 0) {
        printLines(process.stdout, ['no hosts (lookout hosts add <ssh destination>)']);
        return 0;
      }
      const views = await probeHosts(hosts, { env: process.env, clock: Date.now, onProblem: () => undefined });
      printLines(
        process.stdout,
        views.map((view, index) => {
          const host = hosts[index];
          return `${view.name}  ${linkLine(view)}  (${host === undefined ? '' : describe(host)})`;
        }),
      );
      return views.every((view) => view.status.kind === 'connected') ? 0 : 1;
    }
    default:
      throw new UsageError(`hosts takes add, list, remove or upgrade${action === undefined ? '' : ` (got "${action}")`}`);
  }
}
