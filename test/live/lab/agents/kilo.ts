// Kilo CLI in the lab: opencode's fork, the same config shape in its own folder
// (~/.config/kilo/opencode.json), its own database (~/.local/share/kilo/kilo.db), its native binary.
import { join } from 'node:path';
import type { AgentLab } from './agent';
import { fileIn, packageVersion } from './installed';
import { OPENCODE_TUI, writeOpencodeConfig } from './opencode';

const PLATFORM_PACKAGE = '@kilocode/cli-linux-x64';

export const kilo: AgentLab = {
  id: 'kilo',
  // The wrapper's install wants a platform package the registry lacks (7.8.1): the platform package is the pin.
  npmPackage: PLATFORM_PACKAGE,
  wire: 'chat',
  binary: (modules) => fileIn(modules, PLATFORM_PACKAGE, 'bin', 'kilo'),
  version: (modules) => packageVersion(modules, PLATFORM_PACKAGE),
  prepare(home, model) {
    writeOpencodeConfig(join(home.home, '.config', 'kilo'), model.url);
    return {
      KILO_DISABLE_MODELS_FETCH: '1',
      KILO_DISABLE_AUTOUPDATE: '1',
      KILO_DISABLE_LSP_DOWNLOAD: '1',
      KILO_DISABLE_DEFAULT_PLUGINS: '1',
      KILO_DISABLE_SHARE: '1',
      KILO_DISABLE_CLAUDE_CODE: '1',
      KILO_DISABLE_TERMINAL_TITLE: '1',
      KILO_DISABLE_SESSION_INGEST: '1',
      KILO_DISABLE_PRESENCE: '1',
      KILO_DISABLE_CODEBASE_INDEXING: '1',
      KILO_TELEMETRY_LEVEL: 'off',
      KILO_DATA_DIR: join(home.home, '.local', 'share', 'kilo'),
    };
  },
  ...OPENCODE_TUI,
  recorded: ['.local/share/kilo/kilo.db', '.local/share/kilo/kilo.db-wal', '.local/share/kilo/kilo.db-shm'],
  daemonPids: () => [],
};
