// Gemini CLI in the lab: its JS bundle against the lab's model over the Gemini wire, with an API
// key of no worth, a GEMINI_CLI_HOME of the scenario's own (the home whose .gemini it uses).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentLab } from './agent';
import { fileIn, packageVersion } from './installed';

const PACKAGE = '@google/gemini-cli';

export const gemini: AgentLab = {
  id: 'gemini',
  npmPackage: PACKAGE,
  wire: 'gemini',
  // package.json's bin: a Node script with its own shebang.
  binary: (modules) => fileIn(modules, PACKAGE, 'bundle', 'gemini.js'),
  version: (modules) => packageVersion(modules, PACKAGE),
  prepare(home, model) {
    const folder = join(home.home, '.gemini');
    mkdirSync(folder, { recursive: true });
    const settings = {
      // With a base URL the CLI would pick the "gateway" auth it then refuses: the API key's, said outright.
      security: { auth: { selectedType: 'gemini-api-key' } },
      privacy: { usageStatisticsEnabled: false },
      general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
    };
    writeFileSync(join(folder, 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`);
    return {
      GEMINI_CLI_HOME: home.home,
      GEMINI_API_KEY: 'dummy',
      GOOGLE_GEMINI_BASE_URL: model.url,
      GEMINI_CLI_TRUST_WORKSPACE: 'true',
    };
  },
  args: [],
  ready: (screen) => /Type your message/i.test(screen),
  dismiss: () => null,
  asksPermission: (screen) => /Allow execution|Apply this change|Do you want to proceed/i.test(screen),
  approveKeys: ['Enter'],
  tools: {
    guardedShell: (command) => ({ name: 'run_shell_command', input: { command, description: 'Run a lab command' } }),
    question: (question, options) => ({
      name: 'ask_user',
      input: { questions: [{ question, header: 'Lab', type: 'choice', options: options.map((label) => ({ label, description: `Choose ${label}` })) }] },
    }),
    subagent: () => null,
  },
  recorded: ['.gemini/tmp', '.gemini/projects.json'],
  daemonPids: () => [],
};
