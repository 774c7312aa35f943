// `lookout hosts add|list|remove`: the other machines whose sessions this one shows, over ssh
// (issue 13, docs/hosts.md). Stored in settings.json, validated like the rest.
import { parseArgs } from 'node:util';
import { providerIds } from '../../providers';
import { resolveNow } from '../cli/now-option';
import { UsageError } from '../cli/usage-error';
import { printLines } from '../cli/terminal-text';
import { lookoutHome } from '../store/home';
import type { HostConfig } from '../store/schema';
import { HOST_NAME, SSH_DESTINATION } from '../store/schema';
import { loadSettings, updateSettings } from '../store/settings-store';
import { probeHosts } from '../hosts/probe';
import { hostState } from '../../engine';

/** The settings file as read under its lock, with its hosts changed: a host added meanwhile stays (issue 25 item 6). */
function changeHosts(home: string, now: number, change: (hosts: HostConfig[]) => HostConfig[]): void {
  printLines(process.stderr, updateSettings(home, now, (file) => ({ ...file, hosts: change(file.hosts) })));
}

/** The name rules give this machine (`--host local`). */
const LOCAL_HOST = 'local';

/** A name from a destination: the host part of user@host, as a name may be spelled. */
function nameFrom(destination: string): string {
  return (destination.split('@').at(-1) ?? destination).replace(/[^A-Za-z0-9._-]/g, '-').replace(/^[^A-Za-z0-9]+/, '').slice(0, 63);
}

function describe(host: HostConfig): string {
  return `ssh ${host.destination}${host.port === undefined ? '' : ` -p ${host.port}`}${host.command === undefined ? '' : `, lookout: ${host.command}`}`;
}

export async function hostsCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args, options: { name: { type: 'string' }, port: { type: 'string' }, command: { type: 'string' }, now: { type: 'string' } }, strict: true, allowPositionals: true });
  const [action, subject, ...extra] = positionals;
  const now = resolveNow(values.now);
  const home = lookoutHome(process.env);
  const hosts = loadSettings(home, now).hosts;
  if (extra.length > 0) throw new UsageError(`hosts ${action ?? ''} takes one argument (got "${extra.join(' ')}" more)`);
  switch (action) {
    case 'add': {
      if (subject === undefined) throw new UsageError('hosts add needs an ssh destination (a ~/.ssh/config alias or user@host)');
      if (!SSH_DESTINATION.test(subject)) throw new UsageError(`"${subject}" is not an ssh destination Lookout takes (letters, digits and _ . @ % : [ ] -, not starting with "-")`);
      const name = values.name ?? nameFrom(subject);
      if (!HOST_NAME.test(name)) throw new UsageError(`--name "${name}" is not a host name (letters, digits, . _ -, up to 63)`);
      if (providerIds().includes(name)) throw new UsageError(`--name "${name}" is a provider's id: choose another (keys would read ambiguously)`);
      // `rules add --host local` means this machine: a host of that name could never be told apart.
      if (name === LOCAL_HOST) throw new UsageError(`a host may not be named "${LOCAL_HOST}" (rules' --host ${LOCAL_HOST} means this machine): --name another`);
      const free = (known: readonly HostConfig[]): void => {
        if (known.some((host) => host.name === name)) throw new UsageError(`a host named "${name}" exists already (hosts remove ${name} first, or --name another)`);
      };
      free(hosts);
      const port = values.port === undefined ? undefined : Number(values.port);
      if (port !== undefined && !(Number.isInteger(port) && port >= 1 && port <= 65535)) throw new UsageError(`--port takes a port number (got "${values.port}")`);
      if (values.command !== undefined && (values.command.trim() === '' || /[\0\n\r]/.test(values.command))) throw new UsageError('--command takes one line: how the remote shell runs lookout (e.g. "node ~/lookout/dist/cli.cjs")');
      const host: HostConfig = { name, destination: subject, ...(port === undefined ? {} : { port }), ...(values.command === undefined ? {} : { command: values.command }) };
      changeHosts(home, now, (known) => {
        free(known);
        return [...known, host];
      });
      printLines(process.stdout, [`${name}: added (${describe(host)}); \`lookout hosts list\` checks it, and watch, serve and the app show its sessions`]);
      return 0;
    }
    case 'remove': {
      if (subject === undefined) throw new UsageError('hosts remove needs a host name (see lookout hosts list)');
      const known = (set: readonly HostConfig[]): void => {
        if (!set.some((host) => host.name === subject)) throw new UsageError(`no host named "${subject}" (${set.length === 0 ? 'none are set' : set.map((host) => host.name).join(', ')})`);
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
          const state = view.status.kind === 'connected' ? `connected, ${view.snapshot?.sessions.length ?? 0} sessions` : hostState(view.status);
          return `${view.name}  ${state}  (${host === undefined ? '' : describe(host)})`;
        }),
      );
      return views.every((view) => view.status.kind === 'connected') ? 0 : 1;
    }
    default:
      throw new UsageError(`hosts takes add, list or remove${action === undefined ? '' : ` (got "${action}")`}`);
  }
}
