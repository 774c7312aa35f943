// Which folders Pi runs in now, from /proc (Linux). Pi keeps no pid file and holds no file open,
// so this is the one trace of its process. Pi renames itself (process.title = "pi"), which
// rewrites its command line to that one word; before that, or where renaming fails, it is node
// running the package's cli.js.
import { basename } from 'node:path';
import type { ProcessKind } from '../system/process-folders';
import { agentFolders } from '../system/process-folders';

export function piProcessKind(argv: readonly string[]): ProcessKind {
  const [first = ''] = argv;
  if (basename(first) === 'pi' || basename(first) === 'pi.exe') return 'agent';
  return argv.slice(0, 3).some((arg) => arg.includes('/pi-coding-agent/')) ? 'agent' : 'other';
}

/** The real paths of the folders Pi processes run in; null where there is no /proc to ask. */
export function piFolders(): Set<string> | null {
  return agentFolders(piProcessKind);
}
