// Factory Droid in the lab: only `droid exec` can be driven (its TUI asks for a Factory login,
// which the lab cannot give); a custom model ("bring your own key") in ~/.factory/settings.json
// points it at the lab's model over chat completions, with no login.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentLab } from './agent';
import { fileIn, packageVersion } from './installed';

// The wrapper package (@factory/cli) is not installed: the platform package is the pin.
const PLATFORM_PACKAGE = '@factory/cli-linux-x64';

export const droid: AgentLab = {
  id: 'droid',
  npmPackage: PLATFORM_PACKAGE,
  wire: 'chat',
  binary: (modules) => fileIn(modules, PLATFORM_PACKAGE, 'bin', 'droid'),
  version: (modules) => packageVersion(modules, PLATFORM_PACKAGE),
  prepare(home, model) {
    const folder = join(home.home, '.factory');
    mkdirSync(folder, { recursive: true });
    // Without `provider` Droid says "No custom models configured"; the key is never checked here.
    const customModels = [{ model: 'fake-model', baseUrl: `${model.url}/v1`, apiKey: 'dummy', provider: 'generic-chat-completion-api' }];
    writeFileSync(join(folder, 'settings.json'), `${JSON.stringify({ customModels }, null, 2)}\n`);
    return { FACTORY_DROID_AUTO_UPDATE_ENABLED: 'false' };
  },
  args: [],
  // `custom:<model>` names a custom model; exec runs at its default autonomy (low) and never asks.
  headless: (prompt) => ['exec', '-m', 'custom:fake-model', prompt],
  ready: () => true,
  dismiss: () => null,
  // `droid exec` never shows a permission prompt: a call beyond its autonomy fails at once.
  asksPermission: () => false,
  approveKeys: [],
  tools: {
    guardedShell: (command) => ({ name: 'Execute', input: { summary: 'Run a lab command', command, riskLevel: 'low', riskLevelReason: 'a lab command' } }),
    // AskUser and Task are not offered to `droid exec`.
    question: () => null,
    subagent: () => null,
  },
  recorded: ['.factory/sessions'],
  daemonPids: () => [],
};
