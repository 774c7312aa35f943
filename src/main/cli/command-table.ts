// Every command with its options and what its arguments are: the one list shell completion is
// made from (completion.ts). A test checks each option here against the command itself.
import { REVIEW_STATES } from '../../engine';
import { hookProviders, providerIds } from '../../providers';

/** What an argument position takes. */
export type ArgumentKind = { kind: 'session' } | { kind: 'words'; words: readonly string[] } | { kind: 'free' };

export interface CommandSpec {
  name: string;
  options: readonly string[];
  /** Options that take a value (the next word is not an argument). */
  valued: readonly string[];
  /** Each positional argument in order; the last repeats. */
  args: readonly ArgumentKind[];
}

const SESSION: ArgumentKind = { kind: 'session' };
const FREE: ArgumentKind = { kind: 'free' };
const words = (list: readonly string[]): ArgumentKind => ({ kind: 'words', words: list });
const NOW = '--now';

/** The shells `lookout completion` writes for. */
export const SHELLS = ['bash', 'zsh', 'fish'] as const;

export function commandTable(): CommandSpec[] {
  const hookEntries = hookProviders().flatMap((provider) => provider.hooks?.entries.map((entry) => entry.name) ?? []);
  return [
    { name: 'status', options: ['--json', '--all', '--wide', '--cold', NOW], valued: [NOW], args: [] },
    { name: 'watch', options: ['--json', '--notify', '--phone', '--all', NOW], valued: [NOW], args: [] },
    { name: 'next', options: ['--json', '--open', '--cold', NOW], valued: [NOW], args: [] },
    { name: 'explain', options: [NOW], valued: [NOW], args: [SESSION] },
    { name: 'review', options: [NOW], valued: [NOW], args: [SESSION, words(REVIEW_STATES)] },
    { name: 'mute', options: ['--for', NOW], valued: ['--for', NOW], args: [SESSION] },
    { name: 'unmute', options: [NOW], valued: [NOW], args: [SESSION] },
    { name: 'visit', options: [NOW], valued: [NOW], args: [SESSION] },
    { name: 'attention', options: [NOW], valued: [NOW], args: [SESSION, FREE] },
    { name: 'answer', options: ['--message', '--option', NOW], valued: ['--message', '--option', NOW], args: [SESSION, words(['allow', 'deny', 'terminal'])] },
    { name: 'open', options: ['--print', NOW], valued: [NOW], args: [SESSION] },
    { name: 'serve', options: ['--port', '--notify', NOW], valued: ['--port', NOW], args: [] },
    { name: 'hooks', options: ['--provider', '--answer', NOW], valued: ['--provider', '--answer', NOW], args: [words(['status', 'install', 'uninstall'])] },
    { name: 'hook', options: [], valued: [], args: [words(hookEntries)] },
    {
      name: 'hosts',
      options: ['--name', '--port', '--command', '--install', '--node', NOW],
      valued: ['--name', '--port', '--command', '--node', NOW],
      args: [words(['add', 'list', 'remove', 'upgrade']), FREE],
    },
    { name: 'feed', options: [NOW], valued: [NOW], args: [] },
    { name: 'open-here', options: ['--print', NOW], valued: [NOW], args: [SESSION] },
    {
      name: 'rules',
      options: ['--folder', '--provider', '--host', '--mute', '--notify', '--after-finish', '--id', NOW],
      valued: ['--folder', '--provider', '--host', '--notify', '--after-finish', '--id', NOW],
      args: [words(['list', 'add', 'remove']), FREE],
    },
    {
      name: 'phone',
      options: ['--token', NOW],
      valued: ['--token', NOW],
      args: [words(['add', 'list', 'remove', 'test', 'mode']), words(['ntfy', 'telegram', 'away', 'always']), FREE],
    },
    { name: 'completion', options: [], valued: [], args: [words(SHELLS)] },
    { name: 'doctor', options: ['--json', '--notify', NOW], valued: [NOW], args: [] },
    { name: 'version', options: [], valued: [], args: [] },
  ];
}

/** The values an option takes, where they are few: `--provider` names any agent in the registry (`rules`, `hooks`). */
export function optionValues(option: string): readonly string[] {
  return option === '--provider' ? providerIds() : [];
}
