// How the popover reaches the runtime: one interface, two carriers. In the tray app the preload
// exposes `window.lookout`; in a browser (`lookout serve`) it is Server-Sent Events and fetch.
// Whatever arrives is validated against the contract before the UI sees it.
import type { CommandResult, Explanation, PopoverCommand, PopoverState } from '../engine/contract';
import { admit, commandResultSchema, explanationSchema, popoverStateSchema } from '../engine/contract';

export interface PopoverTransport {
  /** Calls back with every new state; returns the unsubscribe function. */
  subscribe(onState: (state: PopoverState) => void, onError: (message: string) => void): () => void;
  send(command: PopoverCommand): Promise<CommandResult>;
  explain(key: string): Promise<Explanation | null>;
  /** Closes the popover (Esc); a browser tab has nothing to close. */
  hide(): void;
}

/** What the Electron preload exposes (kept in step with src/tray/preload.ts). */
export interface LookoutBridge {
  subscribe(listener: (raw: unknown) => void): () => void;
  send(command: unknown): Promise<unknown>;
  explain(key: string): Promise<unknown>;
  hide(): void;
}

function accept(raw: unknown, onState: (state: PopoverState) => void, onError: (message: string) => void): void {
  const state = admit(popoverStateSchema, raw);
  if (state.ok) onState(state.value);
  else onError(`the runtime sent a state the popover cannot read (${state.error})`);
}

function result(raw: unknown): CommandResult {
  const parsed = admit(commandResultSchema, raw);
  return parsed.ok ? parsed.value : { ok: false, error: parsed.error };
}

export function bridgeTransport(bridge: LookoutBridge): PopoverTransport {
  return {
    subscribe: (onState, onError) => bridge.subscribe((raw) => accept(raw, onState, onError)),
    send: async (command) => result(await bridge.send(command)),
    explain: async (key) => {
      const parsed = admit(explanationSchema, await bridge.explain(key));
      return parsed.ok ? parsed.value : null;
    },
    hide: () => bridge.hide(),
  };
}

export function webTransport(token: string): PopoverTransport {
  const headers = { 'content-type': 'application/json', 'x-lookout-token': token };
  return {
    subscribe(onState, onError) {
      const source = new EventSource(`events?token=${encodeURIComponent(token)}`);
      source.onmessage = (event: MessageEvent<string>) => {
        try {
          accept(JSON.parse(event.data) as unknown, onState, onError);
        } catch {
          onError('the runtime sent something that is not JSON');
        }
      };
      source.onerror = () => onError('lost contact with lookout serve; retrying');
      return () => source.close();
    },
    async send(command) {
      const response = await fetch('command', { method: 'POST', headers, body: JSON.stringify(command) });
      return result(await response.json());
    },
    async explain(key) {
      const response = await fetch(`explain?key=${encodeURIComponent(key)}`, { headers });
      if (!response.ok) return null;
      const parsed = admit(explanationSchema, await response.json());
      return parsed.ok ? parsed.value : null;
    },
    hide() {
      // A browser tab stays open.
    },
  };
}
