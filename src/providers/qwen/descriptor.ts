// Qwen Code in the provider registry: where it lives, what to watch, how to resume, its hooks.
// Verified against @qwen-code/qwen-code 0.24.4 in the live lab (issue 24).
import type { ProviderDescriptor } from '../descriptor';
import { partFolder } from '../roots';
import { QWEN_HOOK_ENTRY, qwenHooksEdit, readQwenHook } from './hooks';
import { CHAT_SOURCE, QwenProvider } from './provider';
import { RUNTIME_SOURCE } from './runtime';

const ID = 'qwen';

/** Where its sessions are: QWEN_RUNTIME_DIR's projects (Lookout's environment is the agent's), else the root's. */
function qwenProjects(root: string): string {
  return partFolder(qwenDescriptor.root, root, 'projects');
}

export const qwenDescriptor: ProviderDescriptor = {
  id: ID,
  name: 'Qwen Code',
  shortName: 'Qwen',
  // As 0.24.4 resolves it: QWEN_HOME (a leading ~ is the home), else ~/.qwen, for settings and
  // hooks; its sessions are under the runtime folder's projects: QWEN_RUNTIME_DIR when set. Its
  // settings' advanced.runtimeOutputDir is not followed (it may be relative to each project).
  root: { env: 'QWEN_HOME', defaultFolder: '.qwen', expandsTilde: true, parts: [{ folder: 'projects', env: 'QWEN_RUNTIME_DIR', subfolder: 'projects' }] },
  // projects/<project>/chats/<session>.jsonl and .runtime.json; subagents/<session>/agent-<id>.jsonl and .meta.json.
  watch: (root) => [{ path: qwenProjects(root), depth: 3, files: /\.(jsonl|runtime\.json|meta\.json)$/ }],
  createSource: (root, { index }) => new QwenProvider(root, undefined, index, qwenProjects(root)),
  transcriptSource: CHAT_SOURCE,
  sources: [CHAT_SOURCE, RUNTIME_SOURCE, `${ID}.hook`],
  // `--resume <id>` in the session's folder (Qwen keeps chats per project folder).
  resume: (sessionId) => ['qwen', '--resume', sessionId],
  hooks: {
    entries: [{ name: QWEN_HOOK_ENTRY, channel: 'hook', payload: 'stdin' }],
    edits: (root) => [qwenHooksEdit(root)],
    read: readQwenHook,
    afterInstall: 'Qwen Code reads its hooks when it starts: restart running Qwen Code sessions to use them.',
    sees: {
      without:
        'turns, tool calls (written before their approval prompt: "may be waiting"), questions and plans, cancels, errors once Qwen stops retrying, subagents; liveness from runtime.json',
      with: 'approval prompts the moment they open, turn ends and failures as Qwen reports them, subagents starting and stopping, sessions ending',
    },
  },
  answer: {
    followsHook: false,
    how: 'not from Lookout: its PermissionRequest hook could decide, but Qwen hides its own prompt until that hook returns, so Lookout only observes; answer in the terminal',
    hint: 'answer in the terminal (Lookout does not answer Qwen Code prompts: its deciding hook would hold the terminal prompt back)',
    hook: null,
  },
};
