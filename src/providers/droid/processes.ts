// Which processes are Droid's, for the writer check: the binary itself (`droid`, or `droid.exe`),
// run directly or by the npm wrapper's script. `droid daemon` runs sessions for other front ends
// in folders its own process does not show, so while one runs nothing can be told.
import { basename } from 'node:path';
import type { ProcessKind } from '../system/process-folders';
import { agentFolders } from '../system/process-folders';

const NAMES = new Set(['droid', 'droid.exe']);

export function droidProcessKind(argv: readonly string[]): ProcessKind {
  const at = argv.slice(0, 3).findIndex((arg) => NAMES.has(basename(arg)));
  if (at === -1) return 'other';
  return argv[at + 1] === 'daemon' ? 'unknowable' : 'agent';
}

/** The real paths of the folders Droid runs in now; null where that cannot be told. */
export function droidFolders(): Set<string> | null {
  return agentFolders(droidProcessKind);
}
