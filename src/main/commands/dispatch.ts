// Command table: each command is a small module, loaded only when it runs (so `lookout hook`,
// which agents run on every event, does not pay for the watcher, the store or the server).
import { setFlagsFromString } from 'node:v8';
import { UsageError } from '../cli/usage-error';

type Command = (args: string[]) => Promise<number>;

const COMMANDS: Record<string, () => Promise<Command>> = {
  status: async () => (await import('./status')).statusCommand,
  explain: async () => (await import('./explain')).explainCommand,
  next: async () => (await import('./next')).nextCommand,
  review: async () => (await import('./fact-commands')).reviewCommand,
  mute: async () => (await import('./fact-commands')).muteCommand,
  unmute: async () => (await import('./fact-commands')).unmuteCommand,
  visit: async () => (await import('./fact-commands')).visitCommand,
  attention: async () => (await import('./fact-commands')).attentionCommand,
  answer: async () => (await import('./answer')).answerCommand,
  open: async () => (await import('./open')).openCommand,
  watch: async () => (await import('./watch')).watchCommand,
  serve: async () => (await import('./serve')).serveCommand,
  hook: async () => (await import('./hook')).hookCommand,
  hooks: async () => (await import('./hooks')).hooksCommand,
  hosts: async () => (await import('./hosts')).hostsCommand,
  feed: async () => (await import('./feed')).feedCommand,
  'open-here': async () => (await import('./open-here')).openHereCommand,
  completion: async () => (await import('./completion')).completionCommand,
  rules: async () => (await import('./rules')).rulesCommand,
  doctor: async () => (await import('./doctor')).doctorCommand,
  phone: async () => (await import('./phone')).phoneCommand,
  // For the completion scripts: each session's id and title (not in the help).
  __sessions: async () => (await import('./completion')).sessionsCommand,
};

/** Commands that keep running; every other command is one-shot and done in well under a second. */
const LONG_RUNNING: ReadonlySet<string> = new Set(['watch', 'serve', 'feed']);

/**
 * A one-shot command runs too briefly for V8's optimising compiler to pay back: on two cores its
 * background compiles took a core from the main thread and made a cold `status` ~15 % slower
 * (docs/performance.md). Long-running commands keep it.
 */
export function tierFor(name: string): void {
  // Not in the build's run that writes the code cache: V8 checks a hash of its flags, and on Node
  // 22 and later turning the optimiser off and on again does not give back the hash a start has.
  if (!LONG_RUNNING.has(name) && process.env.LOOKOUT_WRITE_CODE_CACHE !== '1') setFlagsFromString('--no-turbofan');
}

/** The help text, with the providers of the registry (loaded only when help is asked for). */
async function helpText(): Promise<string> {
  const { PROVIDERS, hookProviders } = await import('../../providers');
  const hooked = hookProviders();
  const entries = hooked.flatMap((provider) => provider.hooks?.entries.map((entry) => entry.name) ?? []);
  const example = PROVIDERS[0]?.id ?? 'provider';
  const folders = PROVIDERS.map((provider) => `${provider.root.env} (~/${provider.root.defaultFolder})`).join(', ');
  const optIn = PROVIDERS.filter((provider) => provider.answer.hook?.optIn === true).map((provider) => provider.id);
  return HELP.replace('{hookProviders}', hooked.map((provider) => provider.id).join('|'))
    .replace('{answerOptIn}', optIn.join('|'))
    .replace('{hookEntries}', entries.join('|'))
    .replace('{example}', example)
    .replace('{folders}', folders);
}

const HELP = `Usage: lookout <command> [options]

  status [--json] [--all] [--wide] [--cold] every session in triage order; the table fits the terminal unless --wide;
                                            from the running Lookout when one runs, unless --cold
  watch [--json] [--notify] [--phone] [--all]
                                            a new snapshot whenever a row changes (Ctrl-C stops); --phone: to the phone too
  explain <session>                         the evidence behind one row
  next [--json|--open] [--cold]             the first row that wants attention, or "0 waiting"; --open opens it
  review <session> <state>                  unreviewed, needs-review, reviewed, complete, flagged, outdated
  mute <session> [--for 30m|2h|1d]          mute (until unmuted, or for a while)
  unmute <session>
  visit <session>                           record that you looked at it
  attention <session> [message]             raise an expiring "needs you" on it
  answer <session> allow|deny [--message <text>] | --option <n>… | terminal
                                            answer its waiting prompt from here (docs/answering.md)
  open <session> [--print]                  its own terminal (tmux, kitty, …), else a terminal resuming it, else its folder
  serve [--port <n>] [--notify]             the popover as a page on 127.0.0.1 (first line: its URL)
  hooks status|install|uninstall [--provider {hookProviders}] [--answer {answerOptIn}]
                                            opt-in agent hooks for direct evidence (never installed otherwise)
  hook {hookEntries}            the hook itself, run by the agent (reads JSON, prints nothing)
  hosts add <ssh destination> [--name <n>] [--port <n>] [--command <remote lookout> | --install [--node <path>]]
  hosts list|remove <name>                  other machines' sessions, over ssh (docs/hosts.md)
  hosts upgrade <name> [--node <path>]      put this Lookout's version there (--install copies it over ssh)
  feed                                      what another machine's Lookout runs here over ssh
  open-here <key> [--print]                 what another machine's open runs here over ssh -t
  rules list|remove <id>                    rules per project (docs/status-model.md §4b)
  rules add --folder <glob>|--provider <id>|--host <name> --mute|--notify <never|needs-you|everything>|--after-finish <state> [--id <id>]
  phone add ntfy <server/topic> [--token <t>] | add telegram (bot token on stdin)
  phone list|test|remove <id>|mode away|always
                                            notifications and Allow/Deny on the phone (docs/phone.md)
  completion bash|zsh|fish                  a completion script: commands, options, session ids
  doctor [--json] [--notify]                what Lookout sees: agents' folders, hooks, tray, notifications, hosts, versions
  version                                   this Lookout's version (also --version)

Every command takes --now <ISO-8601> (the instant used and recorded).
<session> is a full key ({example}:7f0c…), a full id, or a unique id prefix (4+ characters).
Folders: {folders}, LOOKOUT_HOME (Lookout's state).`;

export async function runCommand(name: string | undefined, args: string[]): Promise<number> {
  if (name === '--version' || name === 'version') {
    const { LOOKOUT_VERSION } = await import('../text/version');
    if (args.length > 0) throw new UsageError(`${name} takes no argument (got "${args.join(' ')}")`);
    process.stdout.write(`lookout ${LOOKOUT_VERSION}\n`);
    return 0;
  }
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${await helpText()}\n`);
    return name === undefined ? 2 : 0;
  }
  const load = COMMANDS[name];
  if (load === undefined) throw new UsageError(`unknown command "${name}" (see lookout --help)`);
  tierFor(name);
  return (await load())(args);
}
