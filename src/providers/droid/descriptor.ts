// Factory Droid in the provider registry: where it lives, what to watch, how to resume, its hooks.
// Verified against @factory/cli-linux-x64 0.225.2 in the live lab, through `droid exec` (its TUI
// needs a Factory login, which the lab cannot give).
import { join } from 'node:path';
import type { ProviderDescriptor } from '../descriptor';
import { DROID_HOOK_ENTRY, droidHooksEdit, readDroidHook } from './hooks';
import { DroidProvider, PROCESS_SOURCE, TRANSCRIPT_SOURCE } from './provider';

const ID = 'droid';

export const droidDescriptor: ProviderDescriptor = {
  id: ID,
  name: 'Factory Droid',
  shortName: 'Droid',
  // FACTORY_HOME_OVERRIDE names the home whose .factory Droid uses, not the folder itself.
  root: { env: 'FACTORY_HOME_OVERRIDE', defaultFolder: '.factory', envSubfolder: '.factory' },
  // sessions/<cwd slug>/<uuid>.jsonl beside <uuid>.settings.json (how the session runs).
  watch: (root) => [{ path: join(root, 'sessions'), depth: 1, files: /\.(jsonl|settings\.json)$/ }],
  createSource: (root, { index }) => new DroidProvider(root, undefined, index),
  transcriptSource: TRANSCRIPT_SOURCE,
  sources: [TRANSCRIPT_SOURCE, PROCESS_SOURCE, `${ID}.hook`],
  // `--resume <id>` opens the session in the TUI, in the session's folder.
  resume: (sessionId) => ['droid', '--resume', sessionId],
  hooks: {
    entries: [{ name: DROID_HOOK_ENTRY, channel: 'hook', payload: 'stdin' }],
    edits: (root) => [droidHooksEdit(root)],
    read: readDroidHook,
    afterInstall:
      "Droid reads its hooks when a session starts: restart running Droid sessions to use them. An event you define in the hooks.json beside settings.json hides Lookout's entry for that event (Droid merges the two files event by event).",
    sees: {
      without:
        'turns, tool calls and their results, how each turn ended (finished, interrupted, failed and why), subagent sessions as children; a turn left open where no Droid runs any more reads ended',
      with: 'approval prompts and questions the moment they are shown, tools starting and finishing, turns stopping, sessions ending (also a `droid exec` stopped with Ctrl-C, which writes nothing to its file)',
    },
  },
  answer: {
    followsHook: false,
    // PreToolUse may allow or deny, but it runs before every call, before Droid knows whether it would ask.
    how: 'not from Lookout: its hooks observe its prompts but cannot answer one (PreToolUse runs before every tool call, asked or not), and its TUI could not be driven in the live lab; answer in the terminal',
    hint: 'answer in the terminal (Lookout cannot answer Factory Droid prompts)',
    hook: null,
  },
};
