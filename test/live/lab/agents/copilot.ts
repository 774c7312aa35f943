// GitHub Copilot CLI in the lab: its own BYOK mode (no GitHub login) against the lab's model over
// chat completions, offline, with a COPILOT_HOME of the scenario's own.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentLab } from './agent';
import { fileIn, packageVersion } from './installed';
import type { ToolCall } from '../script';

/** Autopilot's own tool: the model says the task is done, and the loop ends. */
export const taskComplete = (summary: string): ToolCall => ({ name: 'task_complete', input: { summary } });

export const copilot: AgentLab = {
  id: 'copilot',
  npmPackage: '@github/copilot',
  wire: 'chat',
  binary: (modules) => fileIn(modules, '@github/copilot-linux-x64', 'copilot'),
  version: (modules) => packageVersion(modules, '@github/copilot'),
  prepare(home, model) {
    const folder = join(home.home, '.copilot');
    mkdirSync(folder, { recursive: true });
    return {
      COPILOT_HOME: folder,
      // BYOK: "GitHub authentication is not required when using a custom provider" (copilot help providers).
      COPILOT_PROVIDER_BASE_URL: `${model.url}/v1`,
      COPILOT_PROVIDER_API_KEY: 'dummy',
      COPILOT_MODEL: 'fake-model',
      COPILOT_PROVIDER_MAX_PROMPT_TOKENS: '128000',
      COPILOT_PROVIDER_MAX_OUTPUT_TOKENS: '8192',
      COPILOT_OFFLINE: 'true',
      COPILOT_AUTO_UPDATE: 'false',
      // Its first run unpacks ~235 MB into the cache: one cache for every scenario, beside the lab's packages.
      XDG_CACHE_HOME: join(__dirname, '../../node_modules/.cache/copilot-lab'),
    };
  },
  args: [],
  ready: (screen) => /Manual Approval|Autopilot · Allow All|\/ commands · \? help/.test(screen) && !/Confirm folder trust/i.test(screen),
  dismiss(screen) {
    if (/Confirm folder trust/i.test(screen)) return ['Enter'];
    return null;
  },
  asksPermission: (screen) => /Do you want to run this command|Allow|approve/i.test(screen) && /1\.\s*Yes/.test(screen),
  approveKeys: ['Enter'],
  tools: {
    guardedShell: (command) => ({ name: 'bash', input: { command, description: 'Run a lab command', mode: 'sync' } }),
    // ask_user: a message and a form of fields (a single-select string field here).
    question: (question, options) => ({
      name: 'ask_user',
      input: { message: question, requestedSchema: { properties: { choice: { type: 'string', title: 'Choice', enum: [...options] } }, required: ['choice'] } },
    }),
    subagent: (description, prompt) => ({ name: 'task', input: { description, prompt, agent_type: 'general-purpose', name: 'lab-helper' } }),
  },
  recorded: ['.copilot/session-state'],
  daemonPids: () => [],
};
