// opencode in the provider registry: where it lives, what to watch, how to resume.
import type { ProviderDescriptor } from '../descriptor';
import { DATABASE_SOURCE, OpencodeProvider } from './provider';

export const opencodeDescriptor: ProviderDescriptor = {
  id: 'opencode',
  name: 'opencode',
  shortName: 'opencode',
  // OPENCODE_DATA_DIR, else $XDG_DATA_HOME/opencode, else ~/.local/share/opencode.
  root: { env: 'OPENCODE_DATA_DIR', defaultFolder: '.local/share/opencode', xdgDataFolder: 'opencode' },
  // The database and its -wal (every step grows the -wal): the folder itself, no deeper.
  watch: (root) => [{ path: root, depth: 0, files: /opencode[^/\\]*\.db(-wal)?$/ }],
  createSource: (root) => new OpencodeProvider(root),
  transcriptSource: DATABASE_SOURCE,
  sources: [DATABASE_SOURCE],
  resume: (sessionId) => ['opencode', '--session', sessionId],
  // The opt-in plugin (permission and question events) is not built yet: passive reading only.
  hooks: null,
};
