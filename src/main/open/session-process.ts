// What `open` needs of a session: its folder, its resume command, and its process — the registry's
// pid, else (an agent that records none) whichever process holds the session's files open.
import type { SessionEvidence } from '../../engine';
import type { ProviderRoots } from '../../providers';
import { findProvider } from '../../providers';
import type { OpenTarget } from './plan';
import { looksLive } from './plan';
import { fileHolders } from './place-probe';

/** The session's process: alive in the registry, else the first holder of its files (null when none). */
function sessionPid(evidence: SessionEvidence, roots: ProviderRoots, holders: (path: string) => number[] = fileHolders): number | null {
  if (evidence.liveness.kind === 'alive') return evidence.liveness.pid;
  const provider = findProvider(evidence.provider);
  const root = roots[evidence.provider];
  if (provider?.sessionFiles === undefined || root === undefined) return null;
  for (const file of provider.sessionFiles(root, evidence.sessionId)) {
    const [pid] = holders(file);
    if (pid !== undefined) return pid;
  }
  return null;
}

/** The open target of a session as this machine sees it (`state`: its observed state). */
export function openTarget(evidence: SessionEvidence, state: string, roots: ProviderRoots, holders?: (path: string) => number[]): OpenTarget {
  const pid = sessionPid(evidence, roots, holders);
  return {
    provider: evidence.provider,
    sessionId: evidence.sessionId,
    cwd: evidence.cwd,
    pid,
    resume: findProvider(evidence.provider)?.resume(evidence.sessionId) ?? [],
    live: looksLive(state, pid !== null),
  };
}
