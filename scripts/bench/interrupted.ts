// A bench stopped before its end (Ctrl-C, a kill, `npm run bench | head` closing its pipe) leaves
// neither its history behind (a slope to 20,000 sessions writes ~11 GB under the temp folder) nor
// a `watch` it started, which would otherwise run on, orphaned.
import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';

const children = new Set<ChildProcess>();
let folder: string | null = null;
let stopping = false;

/** A long-running child of the bench's own, stopped if the bench is. */
export function ownChild(child: ChildProcess): void {
  children.add(child);
  // Started by a section still running while the bench stops: stopped with the rest.
  if (stopping) void ended(child);
  child.once('exit', () => children.delete(child));
}

/** The exit status of a program ended by each signal (128 + its number), as a shell reports it. */
const SIGNALS = [
  ['SIGHUP', 129],
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const;
/** What a program killed by SIGPIPE exits with (Node ignores the signal and sees EPIPE instead). */
const CLOSED_PIPE = 141;
/** How long a child may take to stop on SIGTERM before it is killed. */
const CHILD_STOP_MS = 5_000;

/** From now on, stopping the bench stops its children and removes `path` first. */
export function removedWhenInterrupted(path: string): void {
  folder = path;
  for (const [signal, status] of SIGNALS) process.once(signal, () => void stop(status));
  // The reader gone, the next line written fails: the rest would be written to nobody.
  process.stdout.on('error', () => void stop(CLOSED_PIPE));
}

/** Resolves once `child` has exited: asked with SIGTERM, killed if it has not within the bound. */
function ended(child: ChildProcess): Promise<void> {
  return new Promise((done) => {
    // Never started (no pid: no exit to come), or ended already.
    if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) {
      children.delete(child);
      done();
      return;
    }
    child.once('exit', () => done());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), CHILD_STOP_MS).unref();
  });
}

async function stop(status: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  // A `watch` writes its index into its home inside the folder as it stops: the folder goes after.
  while (children.size > 0) await Promise.all([...children].map(ended));
  if (folder !== null) rmSync(folder, { recursive: true, force: true });
  process.exit(status);
}
