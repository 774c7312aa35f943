// Pi in the lab: its CLI against the lab's model over chat completions, as a custom provider in
// the agent folder's models.json, with a PI_CODING_AGENT_DIR of the scenario's own and nothing
// fetched at start (PI_OFFLINE). Pi never asks before a tool call and has no question tool.
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentLab } from './agent';
import { LAB_MODULES, fileIn, packageVersion } from './installed';

const PACKAGE = '@mariozechner/pi-coding-agent';

export const pi: AgentLab = {
  id: 'pi',
  npmPackage: PACKAGE,
  wire: 'chat',
  // package.json's bin `pi`: a Node script with its own shebang.
  binary: (modules) => fileIn(modules, PACKAGE, 'dist', 'cli.js'),
  version: (modules) => packageVersion(modules, PACKAGE),
  prepare(home, model) {
    const folder = join(home.home, '.pi', 'agent');
    mkdirSync(folder, { recursive: true });
    // The lab's model speaks plain chat completions: a system message, no reasoning effort.
    const models = {
      providers: {
        lab: {
          baseUrl: `${model.url}/v1`,
          api: 'openai-completions',
          apiKey: 'dummy',
          compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
          models: [{ id: 'fake-model' }],
        },
      },
    };
    writeFileSync(join(folder, 'models.json'), `${JSON.stringify(models, null, 2)}\n`);
    // Short retry waits: the same rule (three retries), over seconds rather than half a minute.
    writeFileSync(join(folder, 'settings.json'), `${JSON.stringify({ enableInstallTelemetry: false, retry: { baseDelayMs: 500 } }, null, 2)}\n`);
    return { PI_CODING_AGENT_DIR: folder, PI_OFFLINE: '1', PI_SKIP_VERSION_CHECK: '1', PI_TELEMETRY: '0' };
  },
  args: ['--provider', 'lab', '--model', 'fake-model'],
  // The footer names the model once the editor is up.
  ready: (screen) => screen.includes('fake-model'),
  dismiss: () => null,
  asksPermission: () => false,
  approveKeys: [],
  tools: {
    guardedShell: (command) => ({ name: 'bash', input: { command } }),
    question: () => null,
    subagent: () => null,
  },
  recorded: ['.pi/agent/sessions'],
  daemonPids: () => [],
};

/**
 * Pi with a person's extension that asks before a dangerous command: Pi's own example
 * (examples/extensions/permission-gate.ts, shipped in the package), in the agent folder before Pi starts.
 */
export const piGated: AgentLab = {
  ...pi,
  prepare(home, model) {
    const env = pi.prepare(home, model);
    const extensions = join(home.home, '.pi', 'agent', 'extensions');
    mkdirSync(extensions, { recursive: true });
    copyFileSync(join(LAB_MODULES, PACKAGE, 'examples', 'extensions', 'permission-gate.ts'), join(extensions, 'permission-gate.ts'));
    return env;
  },
};

/** The permission gate's dialog is on screen (its select names the command and asks). */
export const gateAsks = (screen: string): boolean => screen.includes('Dangerous command') && screen.includes('Allow?');
