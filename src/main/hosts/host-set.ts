// Every host of the settings, each with its link; what the runtime merges into its snapshot.
import type { HostView } from '../../engine';
import { splitHostKey } from '../../engine';
import type { FeedCommand } from '../../engine/contract';
import type { HostConfig } from '../store/schema';
import type { HostLinkOptions } from './host-link';
import { HostLink } from './host-link';

export class HostSet {
  private readonly links = new Map<string, HostLink>();
  private signature = '';
  private disposed = false;

  constructor(private readonly options: HostLinkOptions) {}

  /** Starts links for new hosts, stops those removed, restarts those changed. */
  update(hosts: readonly HostConfig[]): void {
    // Stopped for good: a settings reload during shutdown starts nothing.
    if (this.disposed) return;
    const signature = JSON.stringify(hosts);
    if (signature === this.signature) return;
    this.signature = signature;
    const wanted = new Map(hosts.map((host) => [host.name, host]));
    for (const [name, link] of this.links) {
      const config = wanted.get(name);
      if (config !== undefined && JSON.stringify(config) === JSON.stringify(link.config)) continue;
      link.dispose();
      this.links.delete(name);
    }
    for (const host of hosts) {
      if (this.links.has(host.name)) continue;
      const link = new HostLink(host, this.options);
      this.links.set(host.name, link);
      link.start();
    }
    this.options.onChange();
  }

  get names(): string[] {
    return [...this.links.keys()];
  }

  views(): HostView[] {
    return [...this.links.values()].map((link) => link.view());
  }

  /** A command for a host's Lookout, and its answer (see HostLink.ask). */
  ask(host: string, command: FeedCommand): Promise<{ answer: string | null | undefined }> {
    const link = this.links.get(host);
    if (link === undefined) return Promise.resolve({ answer: `no host ${host}` });
    return link.ask(command);
  }

  /**
   * A fact for a session on another machine goes to that machine's Lookout (where its facts
   * live), and the host's answer is waited for: false for a local key; throws, saying why, when
   * the host is not connected, does not answer, or refuses (then nothing was recorded there).
   */
  async relay(command: FeedCommand): Promise<boolean> {
    const { host, key } = splitHostKey(command.key, this.names);
    if (host === null) return false;
    const status = this.views().find((view) => view.name === host)?.status;
    if (status?.kind !== 'connected') throw new Error(`${host} is not connected; nothing was recorded`);
    const { answer } = await this.ask(host, { ...command, key });
    if (answer === undefined) throw new Error(`${host} did not answer; nothing may have been recorded`);
    if (answer !== null) throw new Error(`${host} refused it: ${answer}`);
    return true;
  }

  dispose(): void {
    this.disposed = true;
    for (const link of this.links.values()) link.dispose();
    this.links.clear();
  }
}
