// opencode in the lab: chat completions through its bundled openai-compatible provider, a
// config of its own in the lab's XDG folders, its native binary.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentLab } from './agent';
import { fileIn, packageVersion } from './installed';

/** The tools opencode and its forks (Kilo) give the model, as the fake model calls them. */
const OPENCODE_TOOLS: AgentLab['tools'] = {
  guardedShell: (command) => ({ name: 'bash', input: { command, description: 'Run a lab command' } }),
  question: (question, options) => ({
    name: 'question',
    input: { questions: [{ question, header: 'Lab', options: options.map((label) => ({ label, description: `Choose ${label}` })) }] },
  }),
  subagent: (description, prompt) => ({ name: 'task', input: { description, prompt, subagent_type: 'general' } }),
};

/** The TUI of opencode and its forks (Kilo): how it looks ready, asks, is answered, and its tools. */
export const OPENCODE_TUI: Pick<AgentLab, 'args' | 'ready' | 'dismiss' | 'asksPermission' | 'approveKeys' | 'tools'> = {
  args: [],
  ready: (screen) => /ctrl\+p|Ask anything|tab agents|commands/i.test(screen),
  dismiss: () => null,
  asksPermission: (screen) => /Permission required|Allow once|Allow always/i.test(screen),
  approveKeys: ['Enter'],
  tools: OPENCODE_TOOLS,
};

/** opencode's config (and its forks'): the lab's model through the bundled openai-compatible provider. */
export function writeOpencodeConfig(folder: string, modelUrl: string): void {
  mkdirSync(folder, { recursive: true });
  const config = {
    provider: {
      lab: {
        npm: '@ai-sdk/openai-compatible',
        name: 'Lab',
        options: { baseURL: `${modelUrl}/v1`, apiKey: 'dummy' },
        models: { 'fake-model': { name: 'Fake model', tool_call: true } },
      },
    },
    model: 'lab/fake-model',
    small_model: 'lab/fake-model',
    autoupdate: false,
    share: 'disabled',
    // Ask before a shell command or an edit, as a careful user sets it.
    permission: { bash: 'ask', edit: 'ask' },
  };
  writeFileSync(join(folder, 'opencode.json'), JSON.stringify(config, null, 2));
}

export const opencode: AgentLab = {
  id: 'opencode',
  npmPackage: 'opencode-ai',
  wire: 'chat',
  binary: (modules) => fileIn(modules, 'opencode-linux-x64', 'bin', 'opencode'),
  version: (modules) => packageVersion(modules, 'opencode-ai'),
  prepare(home, model) {
    writeOpencodeConfig(join(home.home, '.config', 'opencode'), model.url);
    return {
      OPENCODE_DISABLE_MODELS_FETCH: '1',
      OPENCODE_DISABLE_AUTOUPDATE: '1',
      OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
      OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
      OPENCODE_DISABLE_SHARE: '1',
      OPENCODE_DISABLE_CLAUDE_CODE: '1',
      OPENCODE_DISABLE_TERMINAL_TITLE: '1',
      OPENCODE_DATA_DIR: join(home.home, '.local', 'share', 'opencode'),
    };
  },
  ...OPENCODE_TUI,
  recorded: ['.local/share/opencode/opencode.db', '.local/share/opencode/opencode.db-wal', '.local/share/opencode/opencode.db-shm'],
  daemonPids: () => [],
};
