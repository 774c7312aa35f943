// The main side of IPC: every message is checked for its sender (our popover window, our page)
// and validated by the contract before anything acts on it.
import type { IpcMain, IpcMainEvent, IpcMainInvokeEvent, WebContents } from 'electron';
import type { CommandResult, Explanation, PopoverState } from '../engine/contract';
import { CHANNEL } from './channels';

interface IpcHost {
  command(raw: unknown): Promise<CommandResult>;
  explain(raw: unknown): Explanation | null;
  state(): PopoverState | null;
  subscribe(listener: (state: PopoverState) => void): () => void;
}

export interface IpcOptions {
  ipc: Pick<IpcMain, 'handle' | 'on' | 'removeHandler' | 'removeAllListeners'>;
  /** The popover's WebContents, once its window exists. */
  popover: () => WebContents | undefined;
  /** The page the popover must be showing (file:// URL of dist/popover/index.html). */
  pageUrl: string;
  host: IpcHost;
  hide: () => void;
}

/** Only our popover window, showing our page, in its main frame, may speak. */
function trusted(event: IpcMainEvent | IpcMainInvokeEvent, options: Pick<IpcOptions, 'popover' | 'pageUrl'>): boolean {
  const popover = options.popover();
  if (popover === undefined || event.sender !== popover) return false;
  const frame = event.senderFrame;
  if (frame === null || frame === undefined || frame.parent !== null) return false;
  return frame.url.split('?')[0] === options.pageUrl;
}

const refused: CommandResult = { ok: false, error: 'refused: not from the Lookout popover' };

export function registerIpc(options: IpcOptions): () => void {
  const { ipc, host } = options;
  ipc.handle(CHANNEL.command, async (event, raw: unknown) => (trusted(event, options) ? host.command(raw) : refused));
  ipc.handle(CHANNEL.explain, (event, raw: unknown) => (trusted(event, options) ? host.explain(raw) : null));
  ipc.on(CHANNEL.hide, (event) => {
    if (trusted(event, options)) options.hide();
  });
  let unsubscribe: (() => void) | null = null;
  ipc.on(CHANNEL.ready, (event) => {
    if (!trusted(event, options)) return;
    unsubscribe?.();
    unsubscribe = host.subscribe((state) => options.popover()?.send(CHANNEL.state, state));
  });
  return () => {
    unsubscribe?.();
    ipc.removeHandler(CHANNEL.command);
    ipc.removeHandler(CHANNEL.explain);
    ipc.removeAllListeners(CHANNEL.hide);
    ipc.removeAllListeners(CHANNEL.ready);
  };
}
