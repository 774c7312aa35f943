// Claude Code in the lab: Anthropic Messages, a seeded config folder, its native binary.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentLab } from './agent';
import { LAB_MODULES, fileIn, packageVersion } from './installed';

export const claude: AgentLab = {
  id: 'claude',
  npmPackage: '@anthropic-ai/claude-code',
  wire: 'anthropic',
  // The platform package's binary: the wrapper's postinstall copy is not needed.
  binary: (modules) => fileIn(modules, '@anthropic-ai/claude-code-linux-x64', 'claude') ?? fileIn(modules, '@anthropic-ai/claude-code', 'bin', 'claude.exe'),
  version: (modules) => packageVersion(modules, '@anthropic-ai/claude-code'),
  prepare(home, model) {
    const config = join(home.home, '.claude');
    mkdirSync(config, { recursive: true });
    const version = packageVersion(LAB_MODULES, '@anthropic-ai/claude-code') ?? '2.1.328';
    // Onboarding, the API key's approval, the project's trust and the auto-mode offer, seen already.
    writeFileSync(
      join(config, '.claude.json'),
      JSON.stringify({
        hasCompletedOnboarding: true,
        lastOnboardingVersion: version,
        theme: 'dark',
        hasSeenAutoDefaultNudge: true,
        customApiKeyResponses: { approved: ['dummy'], rejected: [] },
        projects: { [home.project]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true } },
      }),
    );
    // 2.1.x otherwise starts in a mode that approves Bash without asking.
    writeFileSync(join(config, 'settings.json'), JSON.stringify({ permissions: { defaultMode: 'default' } }, null, 2));
    return {
      CLAUDE_CONFIG_DIR: config,
      ANTHROPIC_BASE_URL: model.url,
      ANTHROPIC_API_KEY: 'dummy',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_AUTOUPDATER: '1',
      DISABLE_TELEMETRY: '1',
      DISABLE_ERROR_REPORTING: '1',
      CLAUDE_CODE_MAX_RETRIES: '2',
    };
  },
  args: [],
  ready: (screen) => /\? for shortcuts|manual mode on/.test(screen) && !screen.includes('Do you want to proceed?'),
  dismiss(screen) {
    if (screen.includes('Make auto mode your default permission mode?')) return ['Down', 'Enter'];
    return null;
  },
  asksPermission: (screen) => screen.includes('Do you want to proceed?'),
  approveKeys: ['Enter'],
  tools: {
    guardedShell: (command) => ({ name: 'Bash', input: { command, description: 'Run a lab command' } }),
    fileEdit: (path, content) => ({ name: 'Write', input: { file_path: path, content } }),
    question: (question, options) => ({
      name: 'AskUserQuestion',
      input: { questions: [{ question, header: 'Lab', multiSelect: false, options: options.map((label) => ({ label, description: `Choose ${label}` })) }] },
    }),
    subagent: (description, prompt) => ({ name: 'Agent', input: { description, prompt, subagent_type: 'general-purpose' } }),
  },
  recorded: ['.claude/projects', '.claude/sessions'],
  daemonPids: () => [],
};

/** Claude Code signed in with a subscription's OAuth token (its usage-limit wording belongs to that sign-in, not to an API key). */
export const claudeSubscription: AgentLab = {
  ...claude,
  prepare(home, model) {
    const { ANTHROPIC_API_KEY: _apiKey, ...env } = claude.prepare(home, model);
    return { ...env, CLAUDE_CODE_OAUTH_TOKEN: 'sk-ant-oat01-lab-token' };
  },
};
