// The rows the running Lookout shows (issue 51), for `status`, `next` and completion: kept apart
// from the one-shot reading of the files, which such a command loads only when it falls back to it.
import type { Snapshot } from '../../engine';
import { OWNER_WAIT_MS } from '../answer/owner-ask';
import { runningSnapshot } from '../answer/snapshot-client';
import { lookoutHome } from '../store/home';

/**
 * The rows the running Lookout shows (issue 51: the tray app, `watch` or `serve`, over its private
 * channel), historical ones only with `all`, or null to read the files: asked only for now (`--now`
 * is the files' to say), never with `--cold`.
 */
export function fromRunning(given: { now?: string | undefined; cold?: boolean | undefined; all?: boolean | undefined }): Promise<Snapshot | null> {
  if (given.now !== undefined || given.cold === true) return Promise.resolve(null);
  return runningSnapshot(lookoutHome(), OWNER_WAIT_MS, given.all === true);
}
