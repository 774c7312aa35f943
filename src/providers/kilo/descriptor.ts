// Kilo CLI in the provider registry. Kilo is a fork of opencode and keeps opencode's database
// (`kilo.db` in $XDG_DATA_HOME/kilo): it is read by opencode's reader with Kilo's file names and
// ids, not by a copy of it (issue 24). Verified against @kilocode/cli-linux-x64 7.7.9 in the lab.
import type { ProviderDescriptor } from '../descriptor';
import type { OpencodeFlavor } from '../opencode/provider';
import { OpencodeProvider } from '../opencode/provider';
import { namedDatabase, namedDatabaseWatch } from '../opencode/named-database';
import { opencodePlugin, readOpencodeEvent } from '../opencode/plugin';

const ID = 'kilo';
const DATABASE_SOURCE = 'kilo.db';

export const KILO_FLAVOR: OpencodeFlavor = {
  provider: ID,
  database: /^kilo(-[A-Za-z0-9._]+)?\.db$/,
  databaseSource: DATABASE_SOURCE,
  writerSource: 'kilo.db-writer',
  // Kilo forked opencode after its database arrived: there is no JSON storage to fall back on.
  legacyStorage: false,
};

export const kiloDescriptor: ProviderDescriptor = {
  id: ID,
  name: 'Kilo CLI',
  shortName: 'Kilo',
  // KILO_DATA_DIR (Lookout's own variable for the folder), else $XDG_DATA_HOME/kilo, else
  // ~/.local/share/kilo; KILO_DB, Kilo's own, may name its database elsewhere (as OPENCODE_DB).
  root: { env: 'KILO_DATA_DIR', defaultFolder: '.local/share/kilo', xdgDataFolder: 'kilo' },
  // The database and its -wal, in the folder itself (every step grows the -wal).
  watch: (root) => [{ path: root, depth: 0, files: /kilo[^/\\]*\.db(-wal)?$/ }, ...namedDatabaseWatch(namedDatabase(root, process.env.KILO_DB))],
  createSource: (root) => new OpencodeProvider(root, KILO_FLAVOR, namedDatabase(root, process.env.KILO_DB)),
  transcriptSource: DATABASE_SOURCE,
  sources: [DATABASE_SOURCE, KILO_FLAVOR.writerSource, `${ID}.hook`],
  // `kilo [project] --session <id>`: run in the session's folder, the project is that folder.
  resume: (sessionId) => ['kilo', '--session', sessionId],
  hooks: {
    // Kilo loads opencode's plugins from its own config folder: Lookout's plugin, reporting as Kilo.
    entries: [{ name: ID, channel: 'hook', payload: 'stdin' }],
    edits: (_root, places) => [opencodePlugin(places, ID, 'kilo', 'Kilo CLI')],
    read: (payload) => readOpencodeEvent(payload),
    afterInstall: 'Kilo CLI loads plugins when it starts: restart running Kilo sessions to use it.',
    sees: {
      without: 'turns, pending and running tools, questions (the question tool), interrupts, errors, child sessions',
      with: 'approval prompts the moment they open (never written to the database), questions and their answers, retries and session errors',
    },
  },
  answer: {
    followsHook: true,
    how: "permission prompts and questions, through Lookout's plugin (Kilo's own reply call, as opencode's), beside the terminal prompt: the first answer wins",
    hint: "answer in the terminal (Lookout's Kilo CLI plugin is not installed, or Kilo started before it was)",
    hook: null,
  },
};
