// Codex in the provider registry: where it lives, what to watch, how to resume, its hooks.
import { permissionReply, readPermissionRequest } from '../hooks/permission-request';
import { join } from 'node:path';
import type { HookSpec, ProviderDescriptor } from '../descriptor';
import { readAgentHook } from '../hooks/events';
import { CodexProvider, ROLLOUT_SOURCE } from './provider';
import { discoverCodex } from './discover';
import { Problems } from '../problems';

const ID = 'codex';
const NOTIFY_ENTRY = 'codex-notify';

const TOOL = '*';
const ANSWER_ENTRY = `${ID}-answer`;
/** Codex's prompt waits for the answering hook: a short, visible wait (issue 23). */
const CODEX_ANSWER_WAIT_MS = 20_000;
/** Codex's events with published schemas (SessionEnd and Interrupt have none yet). */
export const CODEX_EVENTS: readonly HookSpec[] = [
  { event: 'SessionStart', matcher: null },
  { event: 'UserPromptSubmit', matcher: null },
  { event: 'PreToolUse', matcher: TOOL },
  { event: 'PermissionRequest', matcher: TOOL },
  { event: 'PostToolUse', matcher: TOOL },
  { event: 'PreCompact', matcher: null },
  { event: 'PostCompact', matcher: null },
  { event: 'SubagentStart', matcher: null },
  { event: 'SubagentStop', matcher: null },
  { event: 'Stop', matcher: null },
  { event: 'StopFailure', matcher: null },
];

export const codexDescriptor: ProviderDescriptor = {
  id: ID,
  name: 'Codex',
  shortName: 'Codex',
  root: { env: 'CODEX_HOME', defaultFolder: '.codex' },
  watch: (root) => [
    { path: join(root, 'sessions'), depth: 3, files: /\.jsonl(\.zst)?$/ },
    { path: join(root, 'session_index.jsonl'), depth: 0, files: /session_index\.jsonl$/ },
  ],
  createSource: (root, { index }) => new CodexProvider(root, undefined, index),
  transcriptSource: ROLLOUT_SOURCE,
  sources: [ROLLOUT_SOURCE, `${ID}.hook`, `${ID}.notify`],
  resume: (sessionId) => ['codex', 'resume', sessionId],
  // A running Codex keeps its rollout open; the file's name ends with the session id.
  sessionFiles: (root, sessionId) => discoverCodex(root, new Problems()).rollouts.filter((path) => path.endsWith(`-${sessionId}.jsonl`)),
  hooks: {
    entries: [
      { name: ID, channel: 'hook', payload: 'stdin' },
      // Codex's legacy notify program gets its JSON as the last argument, on turn ends only.
      { name: NOTIFY_ENTRY, channel: 'notify', payload: 'last-argument' },
    ],
    edits: (root) => [
      { kind: 'json-hooks', path: join(root, 'hooks.json'), events: CODEX_EVENTS, entry: ID, extra: { timeout: 10 } },
      { kind: 'toml-notify', path: join(root, 'config.toml'), entry: NOTIFY_ENTRY },
    ],
    read: readAgentHook,
    afterInstall: 'Codex runs new hooks only once you trust them: open Codex and review them with /hooks.',
    sees: {
      without: 'turns and tool calls from rollouts; an approval prompt is never written there, so a pending call can only read "may be waiting"',
      with: 'approval prompts as they open (PermissionRequest), turn ends and failures, subagents',
    },
  },
  answer: {
    followsHook: true,
    how: 'approval prompts, only with `hooks install --answer codex`: Codex shows its own prompt only after Lookout answers or lets go (at most 20 s; "Answer in terminal" lets go at once); never questions',
    hint: 'answer in the terminal (answering Codex from Lookout is opt-in: `lookout hooks install --answer codex`)',
    hook: {
      entry: ANSWER_ENTRY,
      mode: 'serial',
      optIn: true,
      wait: CODEX_ANSWER_WAIT_MS,
      edits: (root) => [
        {
          kind: 'json-hooks',
          path: join(root, 'hooks.json'),
          events: [{ event: 'PermissionRequest', matcher: TOOL }],
          entry: ANSWER_ENTRY,
          extra: {
            timeout: CODEX_ANSWER_WAIT_MS / 1000 + 10,
            statusMessage: `Waiting up to ${CODEX_ANSWER_WAIT_MS / 1000} s for an answer from Lookout (its "Answer in terminal" brings the prompt here)`,
          },
        },
      ],
      read: (payload) => readPermissionRequest(ID, payload, false),
      reply: permissionReply,
    },
  },
};
