// Gemini CLI in the provider registry: where it lives, what to watch, how to resume, its hooks.
// Verified against @google/gemini-cli 0.61.0 in the live lab (issue 24).
import { join } from 'node:path';
import type { ProviderDescriptor } from '../descriptor';
import { GEMINI_HOOK_ENTRY, geminiHooksEdit, readGeminiHook } from './hooks';
import { CHAT_SOURCE, GeminiProvider, PROCESS_SOURCE } from './provider';

const ID = 'gemini';

export const geminiDescriptor: ProviderDescriptor = {
  id: ID,
  name: 'Gemini CLI',
  shortName: 'Gemini',
  // GEMINI_CLI_HOME names the home whose .gemini the CLI uses, not the folder itself.
  root: { env: 'GEMINI_CLI_HOME', defaultFolder: '.gemini', envSubfolder: '.gemini' },
  // tmp/<project>/chats/<session>.jsonl, and <parent session>/<subagent>.jsonl one deeper.
  watch: (root) => [{ path: join(root, 'tmp'), depth: 3, files: /\.jsonl$/ }],
  createSource: (root, { index }) => new GeminiProvider(root, undefined, index),
  transcriptSource: CHAT_SOURCE,
  sources: [CHAT_SOURCE, PROCESS_SOURCE, `${ID}.hook`],
  // `--resume <uuid>` in the session's folder (the CLI keeps chats per project folder).
  resume: (sessionId) => ['gemini', '--resume', sessionId],
  hooks: {
    entries: [{ name: GEMINI_HOOK_ENTRY, channel: 'hook', payload: 'stdin' }],
    edits: (root) => [geminiHooksEdit(root)],
    read: (payload) => readGeminiHook(payload),
    afterInstall: 'Gemini CLI reads its hooks when it starts: restart running Gemini sessions to use them.',
    sees: {
      without:
        'turns, finished tool calls, answers, interrupts and errors from the chat files; a call running or awaiting approval only as "may be waiting" (the CLI writes a call once it is done)',
      with: 'approval prompts and questions the moment they are shown, tools starting and finishing, sessions ending',
    },
  },
  answer: {
    followsHook: false,
    how: 'not from Lookout: no Gemini CLI hook can allow a tool (BeforeTool can only deny or force the prompt; Notification only observes); answer in the terminal',
    hint: 'answer in the terminal (Gemini CLI offers no way to answer its prompts from outside)',
    hook: null,
  },
};
