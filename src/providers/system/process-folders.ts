// The folders an agent's processes run in, from /proc (Linux): for an agent that keeps no pid file
// and holds no file open, the one trace of its process. A session whose turn is left open in a
// folder where none of its processes runs lost its writer.
import { readFileSync, readdirSync, readlinkSync, realpathSync } from 'node:fs';

/** What one process is to the agent: its own (with the folder it works in), not its own, or one that hides where it works. */
export type ProcessKind = 'agent' | 'other' | 'unknowable';

/**
 * The real paths of the folders the agent's processes run in. Null where there is no /proc to
 * ask, or when one of its processes runs sessions whose folders cannot be told (`unknowable`).
 */
export function agentFolders(kindOf: (argv: readonly string[]) => ProcessKind): Set<string> | null {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return null;
  }
  const folders = new Set<string>();
  for (const pid of pids) {
    try {
      const kind = kindOf(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0'));
      if (kind === 'unknowable') return null;
      if (kind === 'agent') folders.add(readlinkSync(`/proc/${pid}/cwd`));
    } catch {
      // Gone meanwhile, or someone else's.
    }
  }
  return folders;
}

/** The folder as the kernel names it (a symlinked home reads as its target); null when it is gone. */
function realFolder(folder: string): string | null {
  try {
    return realpathSync(folder);
  } catch {
    return null;
  }
}

/**
 * A test of "no process of the agent runs in this folder" for one sync: /proc is asked at most
 * once, and only when a session needs it (a turn left open). Unknowable (no /proc, no folder): false.
 */
export function noWriterIn(running: () => Set<string> | null): (folder: string | null) => boolean {
  let folders: Set<string> | null | undefined;
  return (folder) => {
    folders ??= running();
    if (folders === null || folder === null) return false;
    const real = realFolder(folder);
    return real === null || !folders.has(real);
  };
}
