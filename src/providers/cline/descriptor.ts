// Cline CLI (the terminal agent, 3.x) in the provider registry: its data folder, what to watch, how
// to resume. Verified against @cline/cli-linux-x64 3.0.65 in the live lab. The VS Code extension
// keeps its tasks in another store, not read here.
import { join } from 'node:path';
import type { ProviderDescriptor } from '../descriptor';
import { CLINE_ROOT, clineFolders } from './folders';
import { HUB_SOURCE } from './liveness';
import { ClineProvider, MESSAGES_SOURCE } from './provider';
import { STATUS_SOURCE } from './status';

export const clineDescriptor: ProviderDescriptor = {
  id: 'cline',
  name: 'Cline CLI',
  shortName: 'Cline',
  // As the CLI resolves it (3.0.65): CLINE_DATA_DIR, else $CLINE_DIR/data, else ~/.cline/data; its
  // database folder (sessions.db, the hubs' logs) and its sessions' messages each have a variable of their own.
  root: CLINE_ROOT,
  // The session table and the hubs' event logs (every status change grows a -wal), each session's
  // messages, and the hubs' discovery files (a hub starting or going).
  watch: (root) => {
    const folders = clineFolders(root);
    return [
      { path: folders.db, depth: 0, files: /(sessions|hub-events-[A-Za-z0-9_-]+)\.db(-wal)?$/ },
      { path: folders.sessions, depth: 1, files: /\.messages\.json$/ },
      { path: join(root, 'locks', 'hub'), depth: 0, files: /\.json$/ },
    ];
  },
  createSource: (root, { index }) => new ClineProvider(root, undefined, index, clineFolders(root)),
  transcriptSource: MESSAGES_SOURCE,
  sources: [MESSAGES_SOURCE, STATUS_SOURCE, HUB_SOURCE],
  // What the CLI prints when a session ends ("Continue  cline --id <id>"): it opens the session in the terminal UI.
  resume: (sessionId) => ['cline', '--id', sessionId],
  // Its hooks add nothing its own status does not say sooner (docs/providers.md): none installed.
  hooks: null,
  answer: {
    followsHook: false,
    how: 'not from Lookout: no Cline CLI hook can approve a tool call (they can only cancel it or add context), and its file-based approval channel replaces the terminal prompt, so it fits only sessions Lookout starts itself; answer in the terminal',
    hint: 'answer in the terminal (Lookout cannot answer Cline CLI prompts)',
    hook: null,
  },
};
