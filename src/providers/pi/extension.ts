// Pi's opt-in direct evidence and answering: an extension of Lookout's own in Pi's extensions
// folder (Pi has no hooks; extensions run inside it). It tells the spool when a dialog an extension
// of the person's opens and closes, and brings that dialog to a running Lookout to be answered
// while Pi's own stays up (extension-source/dialogs.ts). Its code is TypeScript in
// extension-source/, bundled at build time as the opencode plugin is.
import { join } from 'node:path';
import type { HookEdit, HookPlaces } from '../descriptor';
import type { HookReading } from '../hooks/events';
import { spoolName } from '../hooks/spool-format';
import type { JsonRecord } from '../jsonl/parse-record';
import { oneLine, str } from '../jsonl/parse-record';
import type { PluginConfig } from '../opencode/plugin-source/config';
import { LOOKOUT_EXTENSION } from './agent-settings';
import { EXTENSION_BUNDLE } from './extension-bundle';

export const PI_HOOK_ENTRY = 'pi';

/** The extension's text: its config line (this install's folders) above the bundle of extension-source/. */
export function extensionText(spoolFolder: string, runFolder: string): string {
  const config: PluginConfig = { spool: spoolFolder, file: join(spoolFolder, spoolName(PI_HOOK_ENTRY)), run: runFolder, provider: PI_HOOK_ENTRY };
  const literal = JSON.stringify(config)
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
  return `// Lookout's Pi extension (written by \`lookout hooks install\`; \`lookout hooks uninstall\` removes it).
// When an extension of yours shows a dialog (select or confirm), it tells Lookout, so the menu bar
// can say the session waits for you, and lets a running Lookout answer it while Pi's own dialog
// stays up: the first answer wins. It changes nothing else in Pi and never throws.
const LOOKOUT_PLUGIN = ${literal};

${EXTENSION_BUNDLE}`;
}

export function piExtension(root: string, places: HookPlaces): HookEdit {
  return {
    kind: 'own-file',
    path: join(root, 'extensions', LOOKOUT_EXTENSION),
    text: extensionText(places.spoolFolder, places.runFolder),
    what: "Lookout's Pi extension",
  };
}

/** One spool line from the extension: a dialog open is a request, direct; closed, the session moved on. */
export function readPiEvent(payload: JsonRecord): HookReading {
  const reading = (fact: HookReading['fact']): HookReading => ({ sessionId: str(payload.sessionId), cwd: str(payload.cwd), agentId: null, fact });
  switch (str(payload.type)) {
    case 'dialog.open': {
      const title = oneLine(str(payload.title) ?? 'a dialog', 90);
      const tool = str(payload.tool);
      // A confirm is a yes or no on the call in flight; a select is a question of its options.
      return str(payload.kind) === 'confirm'
        ? reading({ kind: 'event', event: 'permission-request', detail: tool === null ? title : oneLine(`${tool}: ${title}`, 100) })
        : reading({ kind: 'event', event: 'input-request', detail: `asks: ${title}` });
    }
    case 'dialog.closed':
      return reading({ kind: 'event', event: 'settled', detail: null });
    default:
      return reading({ kind: 'ignored' });
  }
}
