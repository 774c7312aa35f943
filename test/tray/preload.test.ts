// The preload with a mocked electron: it exposes exactly four functions and wires them to the
// registered channels; no Electron object reaches the page.
import { describe, expect, it, vi } from 'vitest';

const exposed: Record<string, unknown> = {};
const ipcRenderer = { on: vi.fn(), send: vi.fn(), invoke: vi.fn(async () => ({ ok: true })), removeListener: vi.fn() };
vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (name: string, api: unknown) => (exposed[name] = api) },
  ipcRenderer,
}));

describe('preload', () => {
  it('exposes subscribe, send, explain and hide as window.lookout, over the registered channels', async () => {
    await import('../../src/tray/preload');
    const api = exposed.lookout as {
      subscribe: (f: (raw: unknown) => void) => () => void;
      send: (c: unknown) => Promise<unknown>;
      explain: (k: string) => Promise<unknown>;
      hide: () => void;
    };
    expect(Object.keys(api).sort()).toEqual(['explain', 'hide', 'send', 'subscribe']);
    const seen: unknown[] = [];
    const unsubscribe = api.subscribe((raw) => seen.push(raw));
    expect(ipcRenderer.send).toHaveBeenCalledWith('lookout:ready');
    const handler = ipcRenderer.on.mock.calls[0]?.[1] as (event: unknown, raw: unknown) => void;
    handler({ sender: 'event objects stay here' }, { state: 1 });
    expect(seen).toEqual([{ state: 1 }]);
    unsubscribe();
    expect(ipcRenderer.removeListener).toHaveBeenCalledWith('lookout:state', handler);
    await api.send({ type: 'unmute', key: 'claude:x' });
    expect(ipcRenderer.invoke).toHaveBeenCalledWith('lookout:command', { type: 'unmute', key: 'claude:x' });
    await api.explain('claude:x');
    expect(ipcRenderer.invoke).toHaveBeenCalledWith('lookout:explain', { key: 'claude:x' });
    api.hide();
    expect(ipcRenderer.send).toHaveBeenCalledWith('lookout:hide');
  });
});
