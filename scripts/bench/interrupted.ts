// A bench stopped before its end (Ctrl-C, a kill, `npm run bench | head` closing its pipe) leaves
// neither its history behind (a slope to 20,000 sessions writes ~11 GB under the temp folder) nor
// a `watch` it started, which would otherwise run on, orphaned.
import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';

const children = new Set<ChildProcess>();
let folder: string | null = null;

/** A long-running child of the bench's own, stopped if the bench is. */
export function ownChild(child: ChildProcess): void {
  children.add(child);
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

/** From now on, stopping the bench stops its children and removes `path` first. */
export function removedWhenInterrupted(path: string): void {
  folder = path;
  for (const [signal, status] of SIGNALS) process.once(signal, () => stop(status));
  // The reader gone, the next line written fails: the rest would be written to nobody.
  process.stdout.on('error', () => stop(CLOSED_PIPE));
}

function stop(status: number): never {
  for (const child of children) child.kill('SIGTERM');
  if (folder !== null) rmSync(folder, { recursive: true, force: true });
  process.exit(status);
}
