// A popover command about a session on another machine: its facts go to that machine's Lookout,
// and its refusal (or silence) comes back as the command's error. And when a mute of a span ends.
import { splitHostKey } from '../../engine';
import type { FeedCommand, PopoverCommand } from '../../engine/contract';

/** What a remote command needs of the runtime. */
interface RemoteRuntime {
  readonly hosts: { readonly names: string[] };
  onScreen: string | null;
  remoteAsk(command: FeedCommand): Promise<boolean>;
}

/** Until tomorrow morning: 08:00 local time on the next day. */
function tomorrowMorning(now: number): number {
  const date = new Date(now);
  date.setDate(date.getDate() + 1);
  date.setHours(8, 0, 0, 0);
  return date.getTime();
}

/** When a mute of this span ends: null for "forever", an hour, or tomorrow at 8. */
export function muteUntil(span: 'forever' | '1h' | 'tomorrow', now: number): number | null {
  return span === 'forever' ? null : span === '1h' ? now + 3_600_000 : tomorrowMorning(now);
}

/** Carried out on the session's own machine: true when the command was another machine's. */
export async function remoteCommand(command: PopoverCommand, now: number, runtime: RemoteRuntime): Promise<boolean> {
  switch (command.type) {
    case 'review':
      return runtime.remoteAsk({ type: 'review', key: command.key, state: command.state });
    case 'mute': {
      const until = muteUntil(command.span, now);
      return runtime.remoteAsk({ type: 'mute', key: command.key, until: until === null ? null : new Date(until).toISOString() });
    }
    case 'unmute':
      return runtime.remoteAsk({ type: 'unmute', key: command.key });
    case 'select': {
      if (command.key === null || splitHostKey(command.key, runtime.hosts.names).host === null) return false;
      // Selected whatever the host says: the visit is recorded there when it can be.
      runtime.onScreen = command.key;
      runtime.remoteAsk({ type: 'visit', key: command.key }).catch(() => undefined);
      return true;
    }
    case 'answer':
      // Decided on its machine, where the hook waits (R70–R75): its refusal comes back as the error.
      return runtime.remoteAsk({
        type: 'answer',
        key: command.key,
        request: command.request,
        digest: command.digest,
        decision: command.decision,
        via: command.via,
      });
    case 'release':
      return runtime.remoteAsk({ type: 'release', key: command.key, request: command.request });
    case 'open':
    case 'dismiss':
    case 'settings':
    case 'hooks':
    case 'mute-project':
    case 'rule-remove':
    case 'rule-add':
    case 'phone-mode':
    case 'phone-remove':
    case 'phone-test':
    case 'phone-add-ntfy':
      return false;
  }
}
