// Command table: each command is a small module; unknown commands are usage errors.
import { UsageError } from '../usage-error';
import { explainCommand } from './explain';
import { statusCommand } from './status';

export type Command = (args: string[]) => Promise<number>;

const COMMANDS: Record<string, Command> = {
  status: statusCommand,
  explain: explainCommand,
};

export const HELP = `Usage: lookout <command> [options]

  status [--json] [--all] [--now <ISO>]     every session in triage order
  explain <session> [--now <ISO>]           the evidence behind one row

<session> is a full key (claude:7f0c…), a full id, or a unique id prefix (4+ characters).
Folders: CLAUDE_CONFIG_DIR (~/.claude), CODEX_HOME (~/.codex), LOOKOUT_HOME (Lookout's state).`;

export async function runCommand(name: string | undefined, args: string[]): Promise<number> {
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${HELP}\n`);
    return name === undefined ? 2 : 0;
  }
  const command = COMMANDS[name];
  if (command === undefined) throw new UsageError(`unknown command "${name}" (see lookout --help)`);
  return command(args);
}
