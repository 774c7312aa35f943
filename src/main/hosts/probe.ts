// One look at each host for the one-shot commands (`status`, `hosts list`, a fact for a remote
// session): connect, take the first snapshot or the reason there is none, let go.
import type { HostView } from '../../engine';
import type { FeedCommand } from '../../engine/contract';
import type { HostConfig } from '../store/schema';
import { HostLink } from './host-link';

/** How long a one-shot command waits for a host before it reads as unreachable. */
const PROBE_TIMEOUT_MS = 15_000;

export interface ProbeOptions {
  env: Readonly<Record<string, string | undefined>>;
  clock: () => number;
  onProblem: (line: string) => void;
  timeoutMs?: number;
}

export type ProbeResult = HostView & {
  /** For a command: undefined when it was never answered, null when carried out, else why not. */
  answer?: string | null;
};

/**
 * The host's first snapshot (or why there is none). With `command`, that fact is sent once the
 * snapshot shows the session, and the host's answer to it is waited for.
 */
export function probeHost(host: HostConfig, options: ProbeOptions, command?: FeedCommand): Promise<ProbeResult> {
  const id = `cmd-${process.pid}-${Date.now()}`;
  return new Promise((resolve) => {
    let sent = false;
    let done = false;
    const finish = (view: HostView): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      const answer = sent ? link.answer(id) : undefined;
      link.dispose();
      resolve(answer === undefined ? view : { ...view, answer });
    };
    const link = new HostLink(host, {
      env: options.env,
      clock: options.clock,
      onProblem: options.onProblem,
      onChange: () => {
        const view = link.view();
        if (view.status.kind === 'unreachable' || view.status.kind === 'failed') return finish(view);
        if (view.status.kind !== 'connected') return;
        // What the feed says of itself comes with its first lines: waited for, bounded by the timeout.
        if (view.lookout === undefined) return;
        if (command === undefined) return finish(view);
        if (sent) {
          if (link.answer(id) !== undefined) finish(view);
          return;
        }
        if (!(view.snapshot?.sessions ?? []).some((row) => row.key === command.key)) return finish(view);
        sent = true;
        link.expect(id);
        link.send({ ...command, id });
      },
    });
    const timer = setTimeout(() => {
      const view = link.view();
      finish({
        ...view,
        status:
          view.status.kind === 'connected'
            ? view.status
            : { kind: 'unreachable', since: options.clock(), reason: `no answer in ${Math.round((options.timeoutMs ?? PROBE_TIMEOUT_MS) / 1000)} s` },
      });
    }, options.timeoutMs ?? PROBE_TIMEOUT_MS);
    link.start();
  });
}

/** Every host at once. */
export function probeHosts(hosts: readonly HostConfig[], options: ProbeOptions): Promise<HostView[]> {
  return Promise.all(hosts.map((host) => probeHost(host, options)));
}
