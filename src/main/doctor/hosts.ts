// Each host's link for `doctor`: one look, as `lookout hosts list` takes it (probe.ts).
import type { HostStatus } from '../../engine';
import { probeHosts } from '../hosts/probe';
import type { HostConfig } from '../store/schema';
import type { HostReport } from './report';

function reasonOf(status: HostStatus): string | null {
  switch (status.kind) {
    case 'connected':
    case 'connecting':
      return null;
    case 'unreachable':
    case 'failed':
      return status.reason;
  }
}

export async function hostReports(hosts: readonly HostConfig[], env: NodeJS.ProcessEnv): Promise<HostReport[]> {
  if (hosts.length === 0) return [];
  // What the link says on the way (ssh's own lines) is in the reason already: not printed twice.
  const views = await probeHosts(hosts, { env, clock: Date.now, onProblem: () => undefined });
  return views.map((view, index) => ({
    name: view.name,
    destination: hosts[index]?.destination ?? '',
    state: view.status.kind,
    reason: reasonOf(view.status),
    sessions: view.status.kind === 'connected' ? (view.snapshot?.sessions.length ?? 0) : null,
    lookout: view.lookout === undefined ? null : view.lookout === null ? 'before 0.1.0' : view.lookout.version,
  }));
}
