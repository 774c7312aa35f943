// `lookout completion bash|zsh|fish` prints a completion script; `lookout __sessions` (for those
// scripts, not listed in the help) prints each session's id and title, one per line, tab between.
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import type { Shell } from '../cli/completion';
import { completionScript } from '../cli/completion';
import { SHELLS } from '../cli/command-table';
import { UsageError } from '../cli/usage-error';
import { terminalLine } from '../text/terminal-text';
import { resolveNow } from '../cli/now-option';
import { fromRunning } from './running-rows';
import { safeSessionId } from '../open/plan';

const isShell = (name: string): name is Shell => (SHELLS as readonly string[]).includes(name);

export async function completionCommand(args: string[]): Promise<number> {
  const { positionals } = parseArgs({ args, options: {}, strict: true, allowPositionals: true });
  const [shell, ...extra] = positionals;
  if (shell === undefined || !isShell(shell)) throw new UsageError(`completion needs a shell: ${SHELLS.join(', ')}`);
  if (extra.length > 0) throw new UsageError(`completion takes one shell, got ${positionals.length}`);
  process.stdout.write(completionScript(shell, { node: process.execPath, cli: resolve(process.argv[1] ?? 'lookout') }));
  return 0;
}

export async function sessionsCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { now: { type: 'string' } }, strict: true, allowPositionals: false });
  // The running Lookout's rows when one runs (issue 51): a key press should not wait for a cold read.
  const running = await fromRunning({ ...values, all: true });
  const sessions = running?.sessions ?? (await (await import('./one-shot')).evaluateFromDisk(resolveNow(values.now))).evaluation.snapshot.sessions;
  // This machine's sessions, newest first in triage order; titles on one safe line, no tab in them.
  // Only ids that are plain words reach a shell's completion: an id is read from a file anyone can write.
  const lines = sessions
    .filter((row) => row.host === null && safeSessionId(row.sessionId))
    .map(
      (row) =>
        `${row.sessionId}\t${terminalLine(row.title ?? row.cwd ?? '')
          .replace(/\t/g, ' ')
          .slice(0, 80)}`,
    );
  process.stdout.write(lines.map((line) => `${line}\n`).join(''));
  return 0;
}
