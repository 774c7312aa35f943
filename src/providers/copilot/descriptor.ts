// GitHub Copilot CLI in the provider registry: where it lives, what to watch, how to resume.

import { join } from 'node:path';
import type { ProviderDescriptor } from '../descriptor';
import { COPILOT_HOOK_ENTRY, copilotHooksFile, readCopilotHook } from './hooks';
import { CopilotProvider, EVENTS_SOURCE, LOCK_SOURCE } from './provider';

export const copilotDescriptor: ProviderDescriptor = {
  id: 'copilot',
  name: 'GitHub Copilot CLI',
  shortName: 'Copilot',
  // The CLI's own variable for its folder (Irrlicht's recordings set it the same way).
  root: { env: 'COPILOT_HOME', defaultFolder: '.copilot' },
  // Events, the workspace's title, and the locks whose coming and going is liveness.
  watch: (root) => [{ path: join(root, 'session-state'), depth: 1, files: /(\.jsonl|workspace\.yaml|inuse\.\d+\.lock)$/ }],
  createSource: (root, { index }) => new CopilotProvider(root, undefined, index),
  transcriptSource: EVENTS_SOURCE,
  sources: [EVENTS_SOURCE, LOCK_SOURCE, 'copilot.hook'],
  // The form the CLI prints when a session exits (`--resume` alone would open its picker).
  resume: (sessionId) => ['copilot', `--resume=${sessionId}`],
  hooks: {
    entries: [{ name: COPILOT_HOOK_ENTRY, channel: 'hook', payload: 'stdin' }],
    edits: (root, places) => [copilotHooksFile(root, places)],
    read: (payload) => readCopilotHook(payload),
    afterInstall: null,
    sees: {
      without: 'turns, tool calls, approval prompts written to the events file (1.0.77+), questions (ask_user), errors and aborts; liveness from inuse locks',
      with: 'approval prompts in versions that do not write them (1.0.26+), and MCP servers asking for input (elicitation), the moment they are shown',
    },
  },
  answer: {
    followsHook: false,
    how: 'not from Lookout: its extension API could not be proven in the live lab; answer in the terminal',
    hint: 'answer in the terminal (Lookout cannot answer Copilot CLI prompts)',
    hook: null,
  },
};
