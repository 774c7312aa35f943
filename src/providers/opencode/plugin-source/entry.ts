// Lookout's opencode plugin, bundled by scripts/build.mjs into the text `hooks install` writes
// (plugin-bundle.ts). It runs inside opencode (Bun): it must never throw, block or slow it down.
// Its only export is the plugin function (opencode calls every export).
import { answering } from './answering';
import { bag } from './config';
import { spoolEvent } from './spool-line';

export const LookoutPlugin = async ({ directory, client }: { directory?: unknown; client?: unknown }) => ({
  event: async ({ event }: { event?: unknown }): Promise<void> => {
    const given = bag(event);
    spoolEvent(given, directory);
    // After the spool line: the request reaches Lookout after the event that raised the prompt.
    if (given !== null) answering(client, given);
  },
});
