// Pi (@mariozechner/pi-coding-agent) in the provider registry: where it lives, what to watch, how
// to resume. Verified against 0.73.1 in the live lab (issue 50).
import type { ProviderDescriptor } from '../descriptor';
import { partFolder } from '../roots';
import { PROCESS_SOURCE, PiProvider, SESSION_SOURCE } from './provider';

/** Its sessions folder: PI_CODING_AGENT_SESSION_DIR's (Lookout's environment is the agent's), else the root's. */
function piSessions(root: string): string {
  return partFolder(piDescriptor.root, root, 'sessions');
}

export const piDescriptor: ProviderDescriptor = {
  id: 'pi',
  name: 'Pi',
  shortName: 'Pi',
  // As 0.73.1 resolves it: PI_CODING_AGENT_DIR (a leading ~ is the home), else ~/.pi/agent; its
  // sessions under PI_CODING_AGENT_SESSION_DIR when set (flat there), else sessions/<folder>/.
  root: { env: 'PI_CODING_AGENT_DIR', defaultFolder: '.pi/agent', expandsTilde: true, parts: [{ folder: 'sessions', env: 'PI_CODING_AGENT_SESSION_DIR' }] },
  watch: (root) => [{ path: piSessions(root), depth: 1, files: /\.jsonl$/ }],
  createSource: (root, { index }) => new PiProvider(root, piSessions(root), undefined, index),
  transcriptSource: SESSION_SOURCE,
  sources: [SESSION_SOURCE, PROCESS_SOURCE],
  // `--session <id>` opens the session by its uuid (a prefix is enough), in the session's folder.
  resume: (sessionId) => ['pi', '--session', sessionId],
  // Pi has no hooks; its extensions run in-process (docs/providers.md, "Pi").
  hooks: null,
  answer: {
    followsHook: false,
    how: 'nothing to answer from Pi itself: it never asks before a tool call; a confirmation an extension of yours shows is answered in the terminal',
    hint: 'answer in the terminal (Pi asks nothing itself; this is an extension of yours asking)',
    hook: null,
  },
};
