// Which processes hold a file open, read from /proc's descriptors (Linux). Shared by `open` (the
// process behind a Codex rollout) and the providers (is anyone still writing a turn left open?).
import { readFileSync, readdirSync, readlinkSync, realpathSync } from 'node:fs';

/** The access mode bits of a descriptor's flags (fdinfo prints them in octal). */
const ACCESS_MODE = 0o3;

/**
 * The processes that hold `given` open, Lookout itself left out; with `writers`, only those whose
 * descriptor can write it (this process too: it writes agents' files only in tests). Null where there is no /proc to ask (macOS): then nothing can be told.
 */
export function procHolders(given: string, writers = false): number[] | null {
  // A descriptor's link names the real file: a symlinked home or agent folder would never match.
  let path: string;
  try {
    path = realpathSync(given);
  } catch {
    return [];
  }
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return null;
  }
  const holders: number[] = [];
  for (const pid of pids) {
    // Lookout's own descriptors say nothing of another program; a writer is never Lookout's (it only reads).
    if (!writers && Number(pid) === process.pid) continue;
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue; // someone else's, or gone
    }
    for (const fd of fds) {
      try {
        if (readlinkSync(`/proc/${pid}/fd/${fd}`) !== path) continue;
        if (writers && !canWrite(pid, fd)) continue;
        holders.push(Number(pid));
        break;
      } catch {
        // Closed meanwhile.
      }
    }
  }
  return holders;
}

/** Whether the descriptor was opened for writing (O_WRONLY or O_RDWR): a reader like Lookout's own is no writer. */
function canWrite(pid: string, fd: string): boolean {
  const flags = /^flags:\s*([0-7]+)/m.exec(readFileSync(`/proc/${pid}/fdinfo/${fd}`, 'utf8'))?.[1];
  return flags !== undefined && (Number.parseInt(flags, 8) & ACCESS_MODE) !== 0;
}
