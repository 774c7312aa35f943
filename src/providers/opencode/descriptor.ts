// opencode in the provider registry: where it lives, what to watch, how to resume, its plugin.

import { join } from 'node:path';
import type { ProviderDescriptor } from '../descriptor';
import { namedDatabase, namedDatabaseWatch } from './named-database';
import { OPENCODE_HOOK_ENTRY, opencodePlugin, readOpencodeEvent } from './plugin';
import { DATABASE_SOURCE, OpencodeProvider, hasDatabase } from './provider';

export const opencodeDescriptor: ProviderDescriptor = {
  id: 'opencode',
  name: 'opencode',
  shortName: 'opencode',
  // OPENCODE_DATA_DIR (Lookout's own: opencode has none), else $XDG_DATA_HOME/opencode, else
  // ~/.local/share/opencode; OPENCODE_DB, opencode's own, may name its database elsewhere.
  root: { env: 'OPENCODE_DATA_DIR', defaultFolder: '.local/share/opencode', xdgDataFolder: 'opencode' },
  // The database and its -wal (every step grows the -wal): the folder itself, no deeper. The JSON
  // storage of releases before 1.2 only where it is still the truth: its sessions and messages
  // (a folder each per session; part folders, one per message, are too many to watch).
  watch: (root) => [
    { path: root, depth: 0, files: /opencode[^/\\]*\.db(-wal)?$/ },
    ...namedDatabaseWatch(namedDatabase(root, process.env.OPENCODE_DB)),
    ...(hasDatabase(root)
      ? []
      : [
          { path: join(root, 'storage', 'session'), depth: 1, files: /\.json$/ },
          { path: join(root, 'storage', 'message'), depth: 1, files: /\.json$/ },
        ]),
  ],
  createSource: (root) => new OpencodeProvider(root, undefined, namedDatabase(root, process.env.OPENCODE_DB)),
  transcriptSource: DATABASE_SOURCE,
  sources: [DATABASE_SOURCE, 'opencode.hook'],
  // `opencode [project] --session <id>`: run in the session's folder, the project is that folder.
  resume: (sessionId) => ['opencode', '--session', sessionId],
  hooks: {
    // The plugin appends in-process; `lookout hook opencode` takes the same payload on stdin.
    entries: [{ name: OPENCODE_HOOK_ENTRY, channel: 'hook', payload: 'stdin' }],
    edits: (_root, places) => [opencodePlugin(places)],
    read: (payload) => readOpencodeEvent(payload),
    afterInstall: 'opencode loads plugins when it starts: restart running opencode sessions to use it.',
    sees: {
      without: 'turns, pending and running tools, questions (the question tool), interrupts, errors and empty steps, child sessions',
      with: 'approval prompts the moment they open (never written to the database), questions and their answers, retries and session errors',
    },
  },
  answer: {
    followsHook: true,
    how: "permission prompts and questions, through Lookout's plugin (opencode's own reply call), beside the terminal prompt: the first answer wins",
    hint: "answer in the terminal (Lookout's opencode plugin is not installed, or opencode started before it was)",
    hook: null,
  },
};
