// Qwen Code in the lab: its OpenAI-compatible auth against the lab's model over chat completions,
// with a QWEN_HOME of the scenario's own. 0.24.4 starts in "Auto" approval mode (a model decides):
// its settings ask instead, as a careful user sets it.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentLab } from './agent';
import { fileIn, packageVersion } from './installed';

const PACKAGE = '@qwen-code/qwen-code';

export const qwen: AgentLab = {
  id: 'qwen',
  npmPackage: PACKAGE,
  wire: 'chat',
  binary: (modules) => fileIn(modules, PACKAGE, 'cli-entry.js'),
  version: (modules) => packageVersion(modules, PACKAGE),
  prepare(home, model) {
    const folder = join(home.home, '.qwen');
    mkdirSync(folder, { recursive: true });
    const settings = {
      security: { auth: { selectedType: 'openai' } },
      tools: { approvalMode: 'default' },
      privacy: { usageStatisticsEnabled: false },
      general: { disableAutoUpdate: true, disableUpdateNag: true },
      // Side requests that carry the main tools would take the script's replies: off.
      ui: { enableFollowupSuggestions: false },
      memory: { enableManagedAutoMemory: false, enableManagedAutoDream: false, enableAutoSkill: false },
    };
    writeFileSync(join(folder, 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`);
    return {
      QWEN_HOME: folder,
      OPENAI_API_KEY: 'dummy',
      OPENAI_BASE_URL: `${model.url}/v1`,
      OPENAI_MODEL: 'fake-model',
    };
  },
  args: [],
  ready: (screen) => screen.includes('Type your message') && !/Do you trust|trust this folder/i.test(screen),
  dismiss(screen) {
    // The folder-trust question of a first run in a folder: trust it (the first choice).
    if (/Do you trust|trust this folder/i.test(screen)) return ['Enter'];
    return null;
  },
  asksPermission: (screen) => /Allow execution of|Do you want to proceed\?|Apply this change\?/i.test(screen) && /1\.\s*Yes/.test(screen),
  approveKeys: ['Enter'],
  tools: {
    guardedShell: (command) => ({ name: 'run_shell_command', input: { command, description: 'Run a lab command' } }),
    question: () => null,
    subagent: () => null,
  },
  recorded: ['.qwen/projects'],
  daemonPids: () => [],
};
