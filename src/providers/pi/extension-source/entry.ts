// Lookout's Pi extension, bundled by scripts/build.mjs into the text `hooks install` writes
// (extension-bundle.ts). Pi loads it in-process at start (and on /reload): it must never throw,
// block or slow Pi down. Its only export is the extension function Pi calls with its API.
import type { Bag } from '../../opencode/plugin-source/config';
import { bag } from '../../opencode/plugin-source/config';
import { callEnded, callStarted, watchDialogs } from './dialogs';

type Handler = (event: unknown, ctx: unknown) => unknown;

function on(pi: Bag, event: string, handler: Handler): void {
  const register = pi.on;
  if (typeof register !== 'function') return;
  Reflect.apply(register, pi, [
    event,
    (given: unknown, ctx: unknown) => {
      try {
        handler(given, ctx);
      } catch {
        // Lookout must never get in Pi's way.
      }
      return undefined;
    },
  ]);
}

export default function lookout(api: unknown): void {
  const pi = bag(api);
  if (pi === null) return;
  on(pi, 'session_start', (_event, ctx) => watchDialogs(ctx));
  on(pi, 'tool_execution_start', (event) => callStarted(bag(event)));
  on(pi, 'tool_execution_end', (event) => callEnded(bag(event)));
}
