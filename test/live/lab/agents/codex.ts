// Codex in the lab: OpenAI Responses, a seeded CODEX_HOME, the native binary of its platform package.
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentLab } from './agent';
import { LAB_MODULES, fileIn, packageVersion } from './installed';

const TRIPLE = 'x86_64-unknown-linux-musl';

export function codexHome(home: { home: string }): string {
  return join(home.home, '.codex');
}

export const codex: AgentLab = {
  id: 'codex',
  npmPackage: '@openai/codex',
  wire: 'responses',
  binary: (modules) => fileIn(modules, '@openai/codex-linux-x64', 'vendor', TRIPLE, 'bin', 'codex'),
  version: (modules) => packageVersion(modules, '@openai/codex'),
  prepare(home, model) {
    const folder = codexHome(home);
    mkdirSync(folder, { recursive: true });
    // The project trusted, updates off, the lab's model as the only provider; asks before escalating.
    writeFileSync(
      join(folder, 'config.toml'),
      [
        'model = "fake-model"',
        'model_provider = "fake"',
        'approval_policy = "on-request"',
        'sandbox_mode = "workspace-write"',
        'check_for_update_on_startup = false',
        '',
        '[model_providers.fake]',
        'name = "Lab"',
        `base_url = "${model.url}/v1"`,
        'wire_api = "responses"',
        'env_key = "FAKE_API_KEY"',
        // An error scenario ends in seconds, not after Codex's default five retries with backoff.
        'request_max_retries = 1',
        'stream_max_retries = 1',
        '',
        `[projects."${home.project}"]`,
        'trust_level = "trusted"',
        '',
      ].join('\n'),
    );
    const ripgrep = join(LAB_MODULES, '@openai/codex-linux-x64', 'vendor', TRIPLE, 'codex-path');
    return { CODEX_HOME: folder, FAKE_API_KEY: 'dummy', PATH: `${ripgrep}:${process.env.PATH ?? '/usr/bin:/bin'}` };
  },
  args: [],
  ready: (screen) => /›|context left|esc to interrupt|\? for shortcuts/.test(screen) && !screen.includes('Hooks need review'),
  expectedDialog: (hooks) => (hooks ? 'Hooks need review' : null),
  dismiss(screen) {
    // With hooks installed Codex asks to trust them first: "Trust all".
    if (screen.includes('Hooks need review')) return trustAllKeys(screen);
    // Near or at a usage limit (its x-codex-* headers) Codex offers a cheaper model: keep this one.
    if (screen.includes('Approaching rate limits') && screen.includes('2. Keep current model')) return ['2'];
    return null;
  },
  asksPermission: (screen) => /Would you like to run|Yes, proceed|allow/i.test(screen) && /\b(y|Yes)\b/.test(screen),
  approveKeys: ['y'],
  tools: {
    guardedShell: (command) => ({ name: 'exec_command', input: { cmd: command, sandbox_permissions: 'require_escalated', justification: 'The lab needs it' } }),
    // Only in Plan mode (its description says so): the scenario switches to it first.
    question: (question, options) => ({
      name: 'request_user_input',
      input: { questions: [{ id: 'lab_question', header: 'Lab', question, options: options.map((label) => ({ label, description: `Choose ${label}` })) }] },
    }),
    // 0.169's sub-agents: spawn_agent in the multi_agent_v1 namespace; it returns at once.
    subagent: (_description, prompt) => ({ name: 'spawn_agent', namespace: 'multi_agent_v1', input: { message: prompt } }),
  },
  recorded: ['.codex/sessions', '.codex/thread-writer-locks', '.codex/session_index.jsonl'],
  daemonPids(home) {
    const folder = join(codexHome(home), 'app-server-daemon');
    if (!existsSync(folder)) return [];
    const pids: number[] = [];
    for (const name of readdirSync(folder)) {
      if (!name.endsWith('.pid')) continue;
      const pid = Number(readFileSync(join(folder, name), 'utf8').trim().split(/\s/)[0]);
      if (Number.isInteger(pid) && pid > 1) pids.push(pid);
    }
    return pids;
  },
};

/** The keys that move the cursor (›) to "Trust all" and choose it. */
function trustAllKeys(screen: string): string[] {
  const lines = screen.split('\n').filter((line) => /^\s*(›\s*)?\d+\.\s/.test(line));
  const cursor = lines.findIndex((line) => line.includes('›'));
  const target = lines.findIndex((line) => /trust all/i.test(line));
  if (cursor === -1 || target === -1) return ['Enter'];
  const moves: string[] = Array.from({ length: Math.abs(target - cursor) }, () => (target > cursor ? 'Down' : 'Up'));
  return [...moves, 'Enter'];
}
