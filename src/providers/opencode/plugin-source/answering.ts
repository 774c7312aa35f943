// The answering part of the plugin (issue 23): a permission or a question opencode asks is brought
// to a running Lookout over its private socket; the person's answer comes back through opencode's
// own reply routes, beside the TUI's prompt (the first reply wins; a late one is a harmless "not
// found"). Everything here fails quietly: opencode's own prompt always decides then.
import type { Asked } from './ask';
import { ask } from './ask';
import type { Bag } from './config';
import { bag } from './config';
import { draftOf } from './draft';
import { reply } from './reply';

// How long a request waits for the person: below what opencode's prompt is kept for.
const WAIT_MS = 570_000;

const held = new Map<string, Asked>();

function askLookout(client: unknown, type: string, p: Bag): void {
  const draft = draftOf(type, p);
  if (draft === null || draft.agentRequest === null) return;
  const agentRequest = draft.agentRequest;
  const asked = ask(draft, WAIT_MS);
  held.set(agentRequest, asked);
  asked.decision
    .then((decision) => {
      if (held.get(agentRequest) === asked) held.delete(agentRequest);
      if (decision !== null) return reply(client, type, agentRequest, decision);
      return undefined;
    })
    .catch(() => undefined);
}

// Answered in the TUI (or anywhere): Lookout is told, and lets its request go.
function answeredElsewhere(p: Bag): void {
  const id = typeof p.requestID === 'string' ? p.requestID : '';
  const asked = held.get(id);
  if (asked === undefined) return;
  held.delete(id);
  asked.answeredElsewhere();
}

/** Brings an asked prompt to Lookout, or tells it one was answered elsewhere; never throws. */
export function answering(client: unknown, event: Bag): void {
  try {
    const p = bag(event.properties) ?? {};
    if (event.type === 'permission.asked' || event.type === 'question.asked') askLookout(client, event.type, p);
    else if (event.type === 'permission.replied' || event.type === 'question.replied' || event.type === 'question.rejected') answeredElsewhere(p);
  } catch {
    // Lookout must never get in opencode's way.
  }
}
