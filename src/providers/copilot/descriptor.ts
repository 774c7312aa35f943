// GitHub Copilot CLI in the provider registry: where it lives, what to watch, how to resume.
import { join } from 'node:path';
import type { ProviderDescriptor } from '../descriptor';
import { CopilotProvider, EVENTS_SOURCE, LOCK_SOURCE } from './provider';

export const copilotDescriptor: ProviderDescriptor = {
  id: 'copilot',
  name: 'GitHub Copilot CLI',
  shortName: 'Copilot',
  // The CLI's own variable for its folder (Irrlicht's recordings set it the same way).
  root: { env: 'COPILOT_HOME', defaultFolder: '.copilot' },
  // Events, the workspace's title, and the locks whose coming and going is liveness.
  watch: (root) => [{ path: join(root, 'session-state'), depth: 1, files: /(\.jsonl|workspace\.yaml|inuse\.\d+\.lock)$/ }],
  createSource: (root) => new CopilotProvider(root),
  transcriptSource: EVENTS_SOURCE,
  sources: [EVENTS_SOURCE, LOCK_SOURCE],
  // `copilot --resume <id>` (the CLI prints this form when a session exits).
  resume: (sessionId) => ['copilot', '--resume', sessionId],
  // Opt-in hooks (~/.copilot/hooks) are not built yet: passive reading only.
  hooks: null,
};
