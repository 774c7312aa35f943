// Pi (@mariozechner/pi-coding-agent) in the provider registry: where it lives, what to watch, how
// to resume. Verified against 0.73.1 in the live lab (issue 50).
import type { ProviderDescriptor } from '../descriptor';
import { partFolder } from '../roots';
import { PI_HOOK_ENTRY, piExtension, readPiEvent } from './extension';
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
  sources: [SESSION_SOURCE, PROCESS_SOURCE, `${PI_HOOK_ENTRY}.hook`],
  // `--session <id>` opens the session by its uuid (a prefix is enough), in the session's folder.
  resume: (sessionId) => ['pi', '--session', sessionId],
  // Pi has no hooks: Lookout's extension, in Pi's extensions folder, runs inside it (docs/providers.md, "Pi").
  hooks: {
    entries: [{ name: PI_HOOK_ENTRY, channel: 'hook', payload: 'stdin' }],
    edits: (root, places) => [piExtension(root, places)],
    read: (payload) => readPiEvent(payload),
    afterInstall: 'Pi loads extensions when it starts: restart running Pi sessions, or type /reload in them, to use it.',
    sees: {
      without:
        'turns (from the first reply on), tool calls and results, how each turn ended, spent quotas, names; a pending call "may be waiting" only where an extension of yours may ask',
      with: "your extensions' dialogs (select and confirm) the moment they open and close, and answering them from Lookout",
    },
  },
  answer: {
    followsHook: true,
    how: "an extension's dialog (select or confirm), through Lookout's Pi extension, beside Pi's own dialog: the first answer wins. Pi itself never asks",
    hint: "answer in the terminal (Lookout's Pi extension is not installed, or Pi started before it was; an input dialog is answered only there)",
    hook: null,
  },
};
