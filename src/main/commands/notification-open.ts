// A notification's Open (or a click on it) from the command line's runtimes (`watch --notify`,
// `serve --notify`): the first session it named, opened as `lookout open` would.
import { printLines } from '../text/terminal-text';
import type { OpenHost } from '../open/open-local';
import { openLocal } from '../open/open-local';

export function openFromNotification(runtime: OpenHost, keys: readonly string[]): void {
  const [first] = keys;
  if (first === undefined) return;
  openLocal(runtime, first).then(
    (line) => printLines(process.stderr, [`lookout: ${line}`]),
    (error: unknown) => printLines(process.stderr, [`lookout: could not open ${first}: ${error instanceof Error ? error.message : String(error)}`]),
  );
}
