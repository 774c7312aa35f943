// Which folders a Gemini CLI runs in now, from /proc (Linux). The CLI keeps no pid file and holds
// no file open, so this is the one trace of its process: a session whose turn is left open, in a
// folder where no Gemini CLI runs, lost its writer (killed, or a headless run that crashed).
import { basename } from 'node:path';
import { agentFolders } from '../system/process-folders';

/** The CLI's own program among a process's first arguments: its bin (`gemini`), its bundle, or its package. */
export function isGeminiCommand(argv: readonly string[]): boolean {
  return argv.slice(0, 4).some((arg) => {
    const name = basename(arg);
    return name === 'gemini' || name === 'gemini.js' || name === 'gemini.exe' || arg.includes('/@google/gemini-cli/');
  });
}

/** The real paths of the folders Gemini CLI processes run in; null where there is no /proc to ask. */
export function geminiFolders(): Set<string> | null {
  return agentFolders((argv) => (isGeminiCommand(argv) ? 'agent' : 'other'));
}
