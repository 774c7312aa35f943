// The popover window's preload: the only bridge to the main process. Sandboxed, context-isolated;
// it exposes four functions and no Electron object.
import { contextBridge, ipcRenderer } from 'electron';
import type { IpcRendererEvent } from 'electron';
import { CHANNEL } from './channels';

contextBridge.exposeInMainWorld('lookout', {
  subscribe(listener: (raw: unknown) => void): () => void {
    const handler = (_event: IpcRendererEvent, raw: unknown): void => listener(raw);
    ipcRenderer.on(CHANNEL.state, handler);
    ipcRenderer.send(CHANNEL.ready);
    return () => {
      ipcRenderer.removeListener(CHANNEL.state, handler);
    };
  },
  send: (command: unknown): Promise<unknown> => ipcRenderer.invoke(CHANNEL.command, command),
  explain: (key: string): Promise<unknown> => ipcRenderer.invoke(CHANNEL.explain, { key }),
  hide: (): void => ipcRenderer.send(CHANNEL.hide),
});
