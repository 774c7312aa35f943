// Claude Code in the provider registry: where it lives, what to watch, how to resume, its hooks.
import { permissionReply, readPermissionRequest } from '../hooks/permission-request';
import { join } from 'node:path';
import type { HookSpec, ProviderDescriptor } from '../descriptor';
import { readAgentHook } from '../hooks/events';
import { ClaudeProvider, TRANSCRIPT_SOURCE } from './provider';
import { REGISTRY_SOURCE } from './registry';

const ID = 'claude';

const TOOL = '*';
const ANSWER_ENTRY = `${ID}-answer`;
export const CLAUDE_EVENTS: readonly HookSpec[] = [
  { event: 'PreToolUse', matcher: TOOL },
  { event: 'PermissionRequest', matcher: TOOL },
  { event: 'PostToolUse', matcher: TOOL },
  { event: 'PostToolUseFailure', matcher: TOOL },
  { event: 'Notification', matcher: '' },
  { event: 'UserPromptSubmit', matcher: null },
  { event: 'Stop', matcher: null },
  { event: 'StopFailure', matcher: null },
  { event: 'SubagentStart', matcher: null },
  { event: 'SubagentStop', matcher: null },
  { event: 'SessionStart', matcher: null },
  { event: 'SessionEnd', matcher: null },
];

export const claudeDescriptor: ProviderDescriptor = {
  id: ID,
  name: 'Claude Code',
  shortName: 'Claude',
  root: { env: 'CLAUDE_CONFIG_DIR', defaultFolder: '.claude' },
  watch: (root) => [
    { path: join(root, 'projects'), depth: 3, files: /\.(jsonl|json)$/ },
    { path: join(root, 'sessions'), depth: 0, files: /\.json$/ },
  ],
  createSource: (root, { watching, index }) => new ClaudeProvider(root, undefined, watching, index),
  transcriptSource: TRANSCRIPT_SOURCE,
  sources: [TRANSCRIPT_SOURCE, REGISTRY_SOURCE, `${ID}.hook`],
  resume: (sessionId) => ['claude', '--resume', sessionId],
  hooks: {
    entries: [{ name: ID, channel: 'hook', payload: 'stdin' }],
    edits: (root) => [{ kind: 'json-hooks', path: join(root, 'settings.json'), events: CLAUDE_EVENTS, entry: ID, extra: { timeout: 10, async: true } }],
    read: readAgentHook,
    afterInstall: null,
    sees: {
      without: 'turns, tool calls, questions and plans from transcripts; permission prompts only while the live registry reports them',
      with: 'permission prompts the moment they open, turn ends and failures, subagents starting and stopping, sessions ending',
    },
  },
  answer: {
    followsHook: true,
    how: 'permission prompts and questions (AskUserQuestion) from the popover, a notification or `lookout answer`, beside the terminal prompt: the first answer wins',
    hint: "answer in the terminal (Lookout's hooks for Claude Code are not installed, or Lookout was not running when the prompt opened)",
    hook: {
      entry: ANSWER_ENTRY,
      mode: 'concurrent',
      optIn: false,
      // Claude gives the hook 600 s (set explicitly below); Lookout lets go well before.
      wait: 570_000,
      edits: (root) => [
        {
          kind: 'json-hooks',
          path: join(root, 'settings.json'),
          events: [{ event: 'PermissionRequest', matcher: TOOL }],
          entry: ANSWER_ENTRY,
          extra: { timeout: 600 },
        },
      ],
      read: (payload) => readPermissionRequest(ID, payload, true),
      reply: permissionReply,
    },
  },
};
