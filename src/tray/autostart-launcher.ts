// GLib looks for an autostart entry's program before it expands `%%`, so an entry naming a path with
// `%` is refused at login (issue 25). Such a command is started through this small sh launcher in
// Lookout's own private folder instead, at a path without `%`; it is removed with the entry.
import { rmSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { shellQuote } from '../providers/system/argv-quote';
import { writePrivateProgram } from '../providers/system/private-files';
import { readRegularText } from '../providers/system/safe-read';
import { lookoutHome } from '../main/store/home';

/** Marks the launcher as Lookout's own: only such a file is ever removed. */
const MARK = '# X-Lookout-Autostart-Launcher';

/** The entry and the launcher are a few hundred bytes; read on every right-click, never a FIFO or a huge file. */
const AUTOSTART_READ_CAP = 64 * 1024;

export function launcherPath(env: NodeJS.ProcessEnv): string {
  return join(lookoutHome(env, 'linux'), 'bin', 'lookout-autostart');
}

/** What an Exec line cannot carry to the program's own check: `%` (and a newline would end the line). */
export function needsLauncher(command: readonly string[]): boolean {
  return command.some((part) => /[%\r\n]/.test(part));
}

/** Why the launcher cannot be named in an entry either; null when it can. */
function launcherProblem(path: string): string | null {
  if (!isAbsolute(path)) return `Lookout's folder ${JSON.stringify(path)} is not absolute; set LOOKOUT_HOME to an absolute folder`;
  if (/[%\r\n]/.test(path))
    return `Lookout's folder ${JSON.stringify(path)} has a % or a line break, which a desktop entry cannot start; set LOOKOUT_HOME to a folder without one`;
  return null;
}

function launcherText(command: readonly string[]): string {
  return ['#!/bin/sh', MARK, `exec ${command.map(shellQuote).join(' ')} "$@"`, ''].join('\n');
}

export function writeLauncher(path: string, command: readonly string[]): void {
  const problem = launcherProblem(path);
  if (problem !== null) throw new Error(`cannot start at login: ${problem}`);
  writePrivateProgram(path, launcherText(command));
}

/** A regular file of at most AUTOSTART_READ_CAP bytes, else null (missing, a FIFO, too large). */
export function readSmall(path: string): string | null {
  try {
    return readRegularText(path, AUTOSTART_READ_CAP);
  } catch {
    return null;
  }
}

/** Whether the launcher there is Lookout's, written for this very command. */
export function launcherFor(path: string, command: readonly string[]): boolean {
  return readSmall(path) === launcherText(command);
}

export function removeLauncher(path: string): void {
  if (readSmall(path)?.split('\n').includes(MARK) === true) rmSync(path, { force: true });
}
